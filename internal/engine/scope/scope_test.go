package scope

import (
	"slices"
	"testing"

	"github.com/google/cel-go/common/types"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

func TestScope_innerBindingShadowsOuter(t *testing.T) {
	root := Root(map[string]value.Value{"b": "outer", "a": int64(1)})
	inner := New(root, 1)
	inner.BindValue("b", "inner")
	if raw, _, ok := inner.Binding("b"); !ok || raw != "inner" {
		t.Errorf("inner b = %v, %v", raw, ok)
	}
	if raw, _, ok := root.Binding("b"); !ok || raw != "outer" {
		t.Errorf("root b = %v, %v", raw, ok)
	}
	if got, want := inner.Names(), []string{"b", "a"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
	if !inner.Has("a") || inner.Has("c") {
		t.Error("Has: a is bound further up and c nowhere")
	}
}

func TestScope_engineValueGetsItsCELFormOnLookup(t *testing.T) {
	sc := New(nil, 3)
	sc.BindValue("n", int64(7))
	if _, val, _ := sc.Binding("n"); val != nil {
		t.Errorf("CEL form made before any lookup: %v", val)
	}
	v, ok := sc.Lookup("n")
	if !ok || v.Equal(types.Int(7)) != types.True {
		t.Errorf("Lookup(n) = %v, %v", v, ok)
	}
	if got, ok := sc.ResolveName("missing"); ok || got != nil {
		t.Errorf("ResolveName(missing) = %v, %v", got, ok)
	}
}

func TestScope_bindReplacesInTheSameLevel(t *testing.T) {
	sc := New(nil, 0)
	sc.Bind("x", types.String("one"))
	sc.Bind("x", types.String("two"))
	if got := sc.Names(); !slices.Equal(got, []string{"x"}) {
		t.Errorf("Names() = %q", got)
	}
	if v, _ := sc.Lookup("x"); v.Equal(types.String("two")) != types.True {
		t.Errorf("x = %v", v)
	}
}
