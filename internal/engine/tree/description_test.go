package tree

import (
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"
)

// describedTable is a table of the shapes the language has: a prelude
// and its partner, a producer with its body, and an overlay's directive.
func describedTable() *Table {
	return NewTable(noEditList,
		[]Directive{{Name: "$p", Kind: KindPrelude, Binds: true, Exprs: ExprEntries, Bound: BindEntries, BoundKind: "p", Section: 4},
			{Name: "$pm", Kind: KindPartner, Needs: "$p", Exprs: ExprSegments, Section: 4}},
		[]Directive{{Name: "$q", Kind: KindProducer, Needs: "$qb", Exprs: ExprBare, Must: MustBool, MustWhat: "the $q condition", Section: 4},
			{Name: "$qb", Kind: KindPartner, Needs: "$q", Body: true, Section: 4}},
		[]Directive{{Name: "$o", Kind: KindOverlay, Only: AtOverlayRoot, Exprs: ExprBare, Bound: BindFixed, BoundNames: []string{"doc"}, Section: 8}})
}

// A preamble, an overlay's root and a transform's root hold, beside their
// own directive, the preludes and the partners of preludes only.
func TestTable_standsBesidePreludesIsAPreludeOrItsPartner(t *testing.T) {
	tb := describedTable()
	var beside []string
	for _, name := range []string{"$p", "$pm", "$q", "$qb", "$o", "$unknown", "plain"} {
		if tb.StandsBesidePreludes(name) {
			beside = append(beside, name)
		}
	}
	if want := []string{"$p", "$pm"}; !slices.Equal(beside, want) {
		t.Errorf("beside preludes: %q, want %q", beside, want)
	}
}

// With finds the first directive, in table order, that a description
// matches; Directives gives the entries in table order, as copies.
func TestTable_withAndDirectivesReadTheDescriptions(t *testing.T) {
	tb := describedTable()
	if d, ok := tb.With(func(d *Directive) bool { return d.Exprs == ExprBare }); !ok || d.Name != "$q" {
		t.Errorf("With(ExprBare) = %s, %v, want $q", d.Name, ok)
	}
	if _, ok := tb.With(func(d *Directive) bool { return d.Declares }); ok {
		t.Error("With(Declares) found a directive the table does not hold")
	}
	ds := tb.Directives()
	var names []string
	for _, d := range ds {
		names = append(names, d.Name)
	}
	if !slices.Equal(names, tb.Names()) {
		t.Errorf("Directives() in the order %q, Names() %q", names, tb.Names())
	}
	ds[0].Name = "$changed"
	if tb.Names()[0] != "$p" {
		t.Error("changing a copy from Directives() changed the table")
	}
}

// A directive's anchor in the language reference is sSECTION-NAME, and
// its value is template data unless it holds CEL, schemas or a count.
func TestDirective_anchorAndHoldsData(t *testing.T) {
	for _, c := range []struct {
		d      Directive
		anchor string
		data   bool
	}{
		{Directive{Name: "$if", Section: 4, Exprs: ExprBare}, "s4-if", false},
		{Directive{Name: "$eval", Section: 3, Exprs: ExprSegments}, "s3-eval", false},
		{Directive{Name: "$schema", Section: 4, Declares: true}, "s4-schema", false},
		{Directive{Name: "$expects", Section: 8, Exprs: ExprCount}, "s8-expects", false},
		{Directive{Name: "$then", Section: 4}, "s4-then", true},
		{Directive{Name: "$transform", Section: 10}, "s10-transform", true},
	} {
		if got := c.d.Anchor(); got != c.anchor {
			t.Errorf("%s: Anchor() = %q, want %q", c.d.Name, got, c.anchor)
		}
		if got := c.d.HoldsData(); got != c.data {
			t.Errorf("%s: HoldsData() = %v, want %v", c.d.Name, got, c.data)
		}
	}
}

// A prelude entry without a compile function does nothing, as Directive
// says: its mapping compiles as if it were not there.
func TestCompile_aPreludeWithoutACompileFunctionDoesNothing(t *testing.T) {
	tb := NewTable(noEditList, []Directive{{Name: "$n", Kind: KindPrelude, Section: 4}})
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("a:\n  $n: \"${{ never }}\"\n  k: 1\n"), &doc); err != nil {
		t.Fatal(err)
	}
	n, cerr := tb.NewCompiler().Document(&doc)
	if cerr != nil {
		t.Fatalf("compile error: %s", cerr.Msg)
	}
	root, ok := n.(*MapNode)
	if !ok {
		t.Fatalf("the document compiled to %T, want *MapNode", n)
	}
	a, ok := root.Entries[0].Val.(*MapNode)
	if !ok || len(a.Preludes) != 0 || a.NRegular != 1 {
		t.Errorf("a compiled to %+v, want one regular key and no prelude", root.Entries[0].Val)
	}
}
