package walk_test

import (
	"context"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/emit"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
)

// The walker knows no directive: it renders what the table it is given
// compiles. With an empty table, plain YAML renders as data and every
// $-key is an unknown directive.

func noEditList(*tree.Compiler, *yaml.Node, string) (tree.Node, *tree.CompileError) { return nil, nil }

func noNamespace(_ tree.Renderer, docs []value.Value, _ *tree.Frame, _ string) ([]value.Value, error) {
	return docs, nil
}

func emptyEngine(opts tree.Options) *walk.Engine {
	return walk.New(opts, tree.NewTable(noEditList), noNamespace)
}

func render(t *testing.T, e *walk.Engine, text string) string {
	t.Helper()
	docs, err := e.Render(context.Background(), walk.Source{Name: "t.yaml", Text: []byte(text)}, nil)
	if err != nil {
		return "error: " + err.Error()
	}
	out, err := emit.EncodeYAMLStream(docs)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestRender_plainYAMLIsDataDocumentByDocument(t *testing.T) {
	got := render(t, emptyEngine(tree.DefaultOptions()), "a: 1\nb: [x, \"${{ y }}\"]\n---\n- 2\n")
	want := "a: 1\nb:\n  - x\n  - ${{ y }}\n---\n- 2\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestRender_aDollarKeyOutsideTheTableIsUnknown(t *testing.T) {
	got := render(t, emptyEngine(tree.DefaultOptions()), "a:\n  $if: x\n")
	want := "error: t.yaml:2:3: a.$if: unknown directive $if: keys that start with $ are directives; write $$if to output a key $if"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestRender_refusesATemplateLargerThanTheLimit(t *testing.T) {
	opts := tree.DefaultOptions()
	opts.MaxTemplateBytes = 8
	got := render(t, emptyEngine(opts), "a: 123456789\n")
	want := "error: t.yaml:1:1: template is 13 bytes, more than MaxTemplateBytes (8); if this is intended, raise it with the command line's --max-template-bytes (reference §7)"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
