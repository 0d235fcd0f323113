package hint

import "testing"

// Nearest gives the candidate a misspelt name probably meant: a case-only
// difference first, then the first candidate at the smallest distance
// below the limit.
func TestNearest_closestCandidateBelowTheLimit(t *testing.T) {
	dirs := []string{"$schema", "$let", "$if", "$eval", "$include"}
	for name, want := range map[string]string{
		"$eavl":   "$eval",
		"$IF":     "$if",
		"$iff":    "$if",
		"$inclde": "$include",
		"$frob":   "",
	} {
		if got := Nearest(name, dirs, 3, true); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestEditDistance_levenshtein(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"eval", "eavl", 2}, {"same", "same", 0}} {
		if got := EditDistance(c.a, c.b); got != c.d {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

func TestWithPrefix_firstCandidateAShortNameStandsFor(t *testing.T) {
	if got := WithPrefix("maxProp", []string{"maxLength", "maxProperties"}); got != "maxProperties" {
		t.Errorf("got %q", got)
	}
	if got := WithPrefix("zz", []string{"maxLength"}); got != "" {
		t.Errorf("got %q", got)
	}
}

// The hints for type mismatches fit what the template wrote, and say
// nothing for a mismatch whose signature speaks for itself.
func TestOverload_hintsForCommonMismatches(t *testing.T) {
	for _, c := range []struct {
		fn    string
		types []string
		want  string
	}{
		{"_+_", []string{"string", "int"}, "; CEL never turns a value into text on its own: write string(x), or interpolate it: $eval: \"name-${{ x }}\""},
		{"_+_", []string{"int", "double"}, "; CEL never mixes int, uint and double: convert one side, e.g. double(x) or int(x)"},
		{"_&&_", []string{"string", "bool"}, "; " + NoTruthiness},
		{"_+_", []string{"list", "int"}, "; to add one element to a list, wrap it in a list: xs + [x]"},
		{"_-_", []string{"timestamp", "string"}, ""},
	} {
		if got := Overload(c.fn, c.types); got != c.want {
			t.Errorf("Overload(%s, %v) = %q, want %q", c.fn, c.types, got, c.want)
		}
	}
}
