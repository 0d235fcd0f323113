package directive_test

import (
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/directive"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/options"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk/walktest"
)

// Each directive renders through the walker with the entries its file
// gives, and nothing else: no overlay, no other directive.

func render(t *testing.T, text string, vars map[string]value.Value, groups ...[]tree.Directive) string {
	t.Helper()
	e := walk.New(options.Default(), tree.NewTable(walktest.NoEditList, groups...), walktest.NoNamespace)
	return walktest.Render(t, e, text, vars)
}

func TestIf_rendersThenOrElseAlone(t *testing.T) {
	text := "a:\n  $if: \"n > 1\"\n  $then: many\n  $else: one\n"
	for n, want := range map[int64]string{1: "a: one\n", 2: "a: many\n"} {
		if got := render(t, text, map[string]value.Value{"n": n}, directive.If()); got != want {
			t.Errorf("n=%d: got %q, want %q", n, got, want)
		}
	}
}

func TestFor_bindsItsNameInItsBody(t *testing.T) {
	text := "l:\n  - $for: \"x in ['a', 'b']\"\n    $do:\n      $if: \"x == 'b'\"\n      $then: B\n      $else: other\n"
	want := "l:\n  - other\n  - B\n"
	if got := render(t, text, nil, directive.If(), directive.For()); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestLet_anEntrySeesTheEntriesAboveIt(t *testing.T) {
	text := "$let:\n  a: \"1\"\n  b: \"a + 1\"\nv:\n  $if: \"b == 2\"\n  $then: yes\n"
	want := "v: \"yes\"\n"
	if got := render(t, text, nil, directive.Let(), directive.If()); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestAssert_stopsTheRenderWithItsMessage(t *testing.T) {
	text := "$assert: \"n < 3\"\n$msg: too many\nv: 1\n"
	want := "error: t.yaml:1:10: $assert: too many"
	if got := render(t, text, map[string]value.Value{"n": int64(5)}, directive.Assert()); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
