package tree

import (
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"
)

func noEditList(*Compiler, *yaml.Node, string) (Node, *CompileError) { return nil, nil }

func TestNewTable_keepsTheOrderGiven(t *testing.T) {
	tb := NewTable(noEditList,
		[]Directive{{Name: "$b", Kind: KindPrelude}},
		[]Directive{{Name: "$a", Kind: KindProducer, Needs: "$c"}, {Name: "$c", Kind: KindPartner, Needs: "$a"}})
	if got, want := tb.Names(), []string{"$b", "$a", "$c"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
	if d, ok := tb.Lookup("$a"); !ok || d.Needs != "$c" {
		t.Errorf("Lookup($a) = %+v, %v", d, ok)
	}
	if _, ok := tb.Lookup("$d"); ok {
		t.Error("Lookup($d) found a directive the table does not hold")
	}
	if got := tb.Suggest("$aa"); got != "$a" {
		t.Errorf("Suggest($aa) = %q, want $a", got)
	}
}

func TestNewTable_refusesANameListedTwice(t *testing.T) {
	defer func() {
		if got := recover(); got != "tree.NewTable: directive $a listed twice" {
			t.Errorf("recovered %v", got)
		}
	}()
	NewTable(noEditList, []Directive{{Name: "$a"}}, []Directive{{Name: "$a"}})
}

func TestNewTable_refusesNoEditListStep(t *testing.T) {
	defer func() {
		if got := recover(); got != "tree.NewTable: no edit-list step" {
			t.Errorf("recovered %v", got)
		}
	}()
	NewTable(nil)
}

func TestCompiler_readsOnlyItsTable(t *testing.T) {
	tb := NewTable(noEditList, []Directive{{Name: "$only", Kind: KindPrelude}})
	f := tb.CompileFile([]byte("a: 1\n$onyl: 2\n"))                                                                              //nolint:misspell // the typo is the input
	if f.Err == nil || f.Err.Msg != "unknown directive $onyl: did you mean $only? To output a key $onyl as data, write $$onyl" { //nolint:misspell // the typo is the input
		t.Errorf("error = %+v", f.Err)
	}
}
