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
// path is written as plain data that is not a file path string (a list, a
// number, an empty string), or "" when the path is a string or is computed.
func includePathProblem(tb *tree.Table, v *yaml.Node, path string) string {
	t, err := tb.NewCompiler().Compile(v, path)
	if err != nil {
		return "" // the compiler reports it
	}
	k, ok := t.(*tree.ConstNode)
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

// withNames are the names an included file sees, as a render binds them
// (reference §4 $include): those in scope at the $include of mapping n,
// and its $with entries. The result is a copy: the file's own scope
// grows from it.
func withNames(t *tree.Table, n *yaml.Node, scope []string) []string {
	out := append([]string(nil), scope...)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if described(t, n.Content[i].Value).Bound != tree.BindIncluded {
			continue
		}
		w := tree.Deref(n.Content[i+1])
		for j := 0; w.Kind == yaml.MappingNode && j+1 < len(w.Content); j += 2 {
			out = append(out, w.Content[j].Value)
		}
	}
	return out
}

// include checks the file a literal $include names, and the files it
// includes in turn, and a computed path that cannot be a string. scope
// are the names in scope at the $include, with those and its $with
// names, which the file sees.
func (ck *checker) include(fr *diag.Frame, key, v *yaml.Node, path string, scope, with []string) {
	v = tree.Deref(v)
	if msg := includePathProblem(ck.e.Table(), v, path); msg != "" {
		ck.add(fr, tree.CompileErrorAt(v, path, msg))
		return
	}
	if msg := ck.computedPathProblem(v, scope); msg != "" { // includepath.go
		ck.add(fr, tree.CompileErrorAt(v, path, msg))
		return
	}
	if v.Kind != yaml.ScalarNode || strings.Contains(v.Value, "${{") || v.Value == "" {
		return
	}
	p := v.Value
	if !filepath.IsAbs(p) {
		p = filepath.Join(fr.Dir, p)
	}
	text, err := ck.e.Options().Loader.ReadFile(ck.ctx, p, ck.e.Options().MaxTemplateBytes)
	if err != nil {
		ck.add(fr, tree.CompileErrorAt(v, path, includeReadMsg(ck.e, p, err)))
		return
	}
	chain := append([]diag.Pos{{File: fr.File, Line: key.Line, Column: key.Column}}, fr.Chain...)
	ck.file(&diag.Frame{File: filepath.ToSlash(p), Dir: filepath.Dir(p), Real: filepath.Clean(p), Chain: chain}, text, with)
}
