package walk_test

import (
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/options"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk/walktest"
)

// The walker knows no directive: it renders what the table it is given
// compiles. With an empty table, plain YAML renders as data and every
// $-key is an unknown directive.

func emptyEngine(opts options.Options) *walk.Engine {
	return walk.New(opts, tree.NewTable(walktest.NoEditList), walktest.NoNamespace)
}

func render(t *testing.T, e *walk.Engine, text string) string {
	t.Helper()
	return walktest.Render(t, e, text, nil)
}

func TestRender_plainYAMLIsDataDocumentByDocument(t *testing.T) {
	got := render(t, emptyEngine(options.Default()), "a: 1\nb: [x, \"${{ y }}\"]\n---\n- 2\n")
	want := "a: 1\nb:\n  - x\n  - ${{ y }}\n---\n- 2\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestRender_aDollarKeyOutsideTheTableIsUnknown(t *testing.T) {
	got := render(t, emptyEngine(options.Default()), "a:\n  $if: x\n")
	want := "error: t.yaml:2:3: a.$if: unknown directive $if: keys that start with $ are directives; write $$if to output a key $if"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestRender_refusesATemplateLargerThanTheLimit(t *testing.T) {
	opts := options.Default()
	opts.MaxTemplateBytes = 8
	got := render(t, emptyEngine(opts), "a: 123456789\n")
	want := "error: t.yaml:1:1: template is 13 bytes, more than MaxTemplateBytes (8); if this is intended, raise it with the command line's --max-template-bytes (reference §7)"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
