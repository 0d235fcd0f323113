package engine

import (
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// A condition comparing a path with a string literal is decided without
// CEL when a string is found there; whatever the path holds, the result
// and the error are CEL's own (the parenthesised form always runs CEL).
func TestEvalBool_literalComparisonAgreesWithCEL(t *testing.T) {
	values := map[string]value.Value{
		"match":   "a",
		"other":   "b",
		"int":     int64(1),
		"null":    nil,
		"map":     mapOf("k", "a"),
		"list":    []value.Value{"a"},
		"unknown": value.Unknown{},
	}
	e := New(Options{})
	for name, v := range values {
		for _, expr := range []string{"v.k == 'a'", `v == "a"`, "v == 'a'", "v . k== 'a' ", "missing == 'a'"} {
			vars := map[string]value.Value{"v": v}
			fast := renderInline(t, e, "x:\n  $if: "+quoteYAML(expr)+"\n  $then: yes\n  $else: no\n", vars)
			slow := renderInline(t, e, "x:\n  $if: "+quoteYAML("("+expr+")")+"\n  $then: yes\n  $else: no\n", vars)
			if !eqIgnoringExpr(fast, slow) || fast == "" {
				t.Errorf("%s with v = %s:\n fast: %s\n  CEL: %s", expr, name, fast, slow)
			}
		}
	}
}

func quoteYAML(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// eqIgnoringExpr compares two outcomes by their first line; errors without
// their position, as the parenthesised expression moves the caret by one.
func eqIgnoringExpr(a, b string) bool {
	a, _, _ = strings.Cut(a, "\n")
	b, _, _ = strings.Cut(b, "\n")
	if strings.HasPrefix(a, "error: ") && strings.HasPrefix(b, "error: ") {
		_, a, _ = strings.Cut(a, ": x.$if: ")
		_, b, _ = strings.Cut(b, ": x.$if: ")
	}
	return a == b
}
