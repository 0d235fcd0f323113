// Package walktest renders templates through a walker built for a test
// from the table entries and steps the test names, for the packages whose
// tests render their own part alone (walk, directive, overlay).
package walktest

import (
	"context"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/emit"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
)

// NoEditList is the edit-list step of a table without overlays: no
// sequence is an edit list.
func NoEditList(*tree.Compiler, *yaml.Node, string) (tree.Node, *tree.CompileError) { return nil, nil }

// NoNamespace is the namespace step of a walker without transforms: the
// documents stay as they are.
func NoNamespace(_ tree.Renderer, docs []value.Value, _ *diag.Frame, _ string) ([]value.Value, error) {
	return docs, nil
}

// Render renders text, named t.yaml, with walker e and vars, and gives
// the YAML stream, or "error: " and the render's error.
func Render(t testing.TB, e *walk.Engine, text string, vars map[string]value.Value) string {
	t.Helper()
	docs, err := e.Render(context.Background(), walk.Source{Name: "t.yaml", Text: []byte(text)}, vars)
	if err != nil {
		return "error: " + err.Error()
	}
	out, err := emit.EncodeYAMLStream(docs)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
