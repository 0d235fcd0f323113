package check

import (
	"errors"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/loader"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
	"github.com/celyaml/terraform-provider-celyaml/internal/fileread"
)

// includePathProblem is what a render will say about an $include whose
// path, compiled to file, is written as plain data that is not a file
// path string (a list, a number, an empty string), or "" when the path is
// a string or is computed.
func includePathProblem(file tree.Node) string {
	k, ok := file.(*tree.ConstNode)
	if !ok {
		return "" // computed when the template renders
	}
	s, isStr := k.Value.(string)
	switch {
	case isStr && s != "":
		return ""
	case isStr:
		return "$include takes a file path string, got an empty string"
	}
	return "$include takes a file path string, got " + tree.ValueKind(k.Value)
}

// includeReadMsg is what a render says when it cannot read the included
// file shown.
func includeReadMsg(e *walk.Engine, shown string, err error) string {
	if errors.Is(err, fileread.ErrTooLarge) {
		return "included file " + tree.Quote(filepath.ToSlash(shown)) + " is larger than MaxTemplateBytes (" + tree.Itoa(e.Options().MaxTemplateBytes) + " bytes)" + hint.RaiseLimit("MaxTemplateBytes")
	}
	return "cannot read included file " + tree.Quote(filepath.ToSlash(shown)) + ": " + loader.ErrText(err)
}

// include checks the file a literal $include, described by desc and
// written at path, names, and the files it includes in turn, and a
// computed path that cannot be a string. scope are the names in scope at
// the $include; the file sees them and the $with names (reference §4
// $include).
func (ck *checker) include(fr *diag.Frame, desc tree.Description, path string, scope []string) {
	if len(desc.Bodies) == 0 {
		return
	}
	file := desc.Bodies[0].Node // the path
	at := fileNode(file)
	if at == nil {
		return
	}
	if msg := includePathProblem(file); msg != "" {
		ck.add(fr, tree.CompileErrorAt(at, path, msg))
		return
	}
	if msg := ck.computedPathProblem(file, scope); msg != "" { // includepath.go
		ck.add(fr, tree.CompileErrorAt(at, path, msg))
		return
	}
	k, ok := file.(*tree.ConstNode)
	if !ok {
		return
	}
	p, _ := k.Value.(string)
	if strings.Contains(p, "${{") {
		return
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(fr.Dir, p)
	}
	text, err := ck.e.Options().Loader.ReadFile(ck.ctx, p, ck.e.Options().MaxTemplateBytes)
	if err != nil {
		ck.add(fr, tree.CompileErrorAt(at, path, includeReadMsg(ck.e, p, err)))
		return
	}
	with := append([]string(nil), scope...)
	for _, b := range desc.Binds {
		with = append(with, b.Name)
	}
	chain := append([]diag.Pos{{File: fr.File, Line: desc.Key.Line, Column: desc.Key.Column}}, fr.Chain...)
	ck.file(&diag.Frame{File: filepath.ToSlash(p), Dir: filepath.Dir(p), Real: filepath.Clean(p), Chain: chain}, text, with)
}

// fileNode is where a compiled $include path is written.
func fileNode(file tree.Node) *yaml.Node {
	switch t := file.(type) {
	case *tree.ConstNode:
		return t.Node
	case *tree.MapNode:
		return t.Node
	case *tree.SeqNode:
		return t.Node
	}
	return nil
}
