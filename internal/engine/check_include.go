package engine

import (
	"errors"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/fileread"
)

// includePathProblem is what a render will say about an $include whose
// path is written as plain data that is not a file path string (a list, a
// number, an empty string), or "" when the path is a string or is computed.
func includePathProblem(v *yaml.Node, path string) string {
	t, err := newCompiler().node(v, path)
	if err != nil {
		return "" // the compiler reports it
	}
	k, ok := t.(*constNode)
	if !ok {
		return "" // computed when the template renders
	}
	s, isStr := k.v.(string)
	switch {
	case isStr && s != "":
		return ""
	case isStr:
		return "$include takes a file path string, got an empty string"
	}
	return "$include takes a file path string, got " + valueKind(k.v)
}

// includeReadMsg is what a render says when it cannot read the included
// file shown.
func includeReadMsg(e *Engine, shown string, err error) string {
	if errors.Is(err, fileread.ErrTooLarge) {
		return "included file " + quote(filepath.ToSlash(shown)) + " is larger than MaxTemplateBytes (" + itoa(e.opts.MaxTemplateBytes) + " bytes); raise the engine option MaxTemplateBytes if this is intended"
	}
	return "cannot read included file " + quote(filepath.ToSlash(shown)) + ": " + loadErrText(err)
}
