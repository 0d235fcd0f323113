package lex

import "testing"

// SkipString ends a literal after its closing quote, in every quote form
// CEL has; a backslash escapes except in a raw string.
func TestSkipString_endsAfterTheClosingQuote(t *testing.T) {
	cases := []struct {
		s        string
		tok, q   int
		raw      bool
		end      int
		errMsg   string
		errStart int
	}{
		{s: `'a' + b`, end: 3},
		{s: `"a\"b" x`, end: 6},
		{s: `r'a\'`, tok: 0, q: 1, raw: true, end: 5},
		{s: `'''a'b''' x`, end: 9},
		{s: `"""a\"""b""" x`, end: 12},
		{s: `'abc`, end: -1, errMsg: "unterminated string literal"},
		{s: "'a\nb'", end: -1, errMsg: "unterminated string literal: a quoted string cannot span lines; use ''' or \"\"\""},
		{s: `x + '''never`, tok: 4, q: 4, end: -1, errMsg: "unterminated string literal", errStart: 4},
	}
	for _, c := range cases {
		end, err := SkipString(c.s, c.tok, c.q, c.raw)
		if end != c.end {
			t.Errorf("SkipString(%q) = %d, want %d", c.s, end, c.end)
		}
		switch {
		case c.errMsg == "" && err != nil:
			t.Errorf("SkipString(%q): unexpected error %v", c.s, err)
		case c.errMsg != "" && (err == nil || err.Msg != c.errMsg || err.Offset != c.errStart):
			t.Errorf("SkipString(%q): error %v, want %q at %d", c.s, err, c.errMsg, c.errStart)
		}
	}
}

func TestStringPrefix_rawAndBytesInAnyCase(t *testing.T) {
	for p, want := range map[string][2]bool{
		"r": {true, true}, "R": {true, true}, "b": {false, true}, "B": {false, true},
		"br": {true, true}, "Rb": {true, true}, "x": {false, false}, "bb": {false, false}, "rbr": {false, false},
	} {
		raw, ok := StringPrefix(p)
		if raw != want[0] || ok != want[1] {
			t.Errorf("StringPrefix(%q) = %v, %v; want %v, %v", p, raw, ok, want[0], want[1])
		}
	}
}

func TestIsIdent_variableNamesOnly(t *testing.T) {
	for s, want := range map[string]bool{
		"svc": true, "_x1": true, "a_b": true,
		"": false, "1a": false, "a-b": false, "in": false, "null": false, "true": false, "package": false,
	} {
		if got := IsIdent(s); got != want {
			t.Errorf("IsIdent(%q) = %v, want %v", s, got, want)
		}
	}
}
