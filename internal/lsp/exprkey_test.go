package lsp

import "testing"

// The value of $if, $for and $assert is a CEL expression where completion
// offers names, as the directive table describes them; $eval's, $let's
// and the overlays' are not (the symbols mark $let's entries one by one).
func TestExprKey_isTheDirectivesWhoseValueIsOneExpression(t *testing.T) {
	for prefix, want := range map[string]bool{
		"  $if: ":         true,
		"  $for: \"x in ": true,
		"  $assert: ":     true,
		"  \"$if\": ":     true,
		"  $eval: ":       false,
		"  $let: ":        false,
		"$overlay: ":      false,
		"  - $match: ":    false,
		"  $iff: ":        false,
		"  iff: ":         false,
		"  $then: ":       false,
		"  $include: ":    false,
		"  $for_each: ":   false,
		"  $schema: ":     false,
		"  $msg: ":        false,
		"  $remove: ":     false,
		"  $transform: ":  false,
		"  $expects: ":    false,
		"  $with: ":       false,
		"  $key: ":        false,
		"  $value: ":      false,
		"  $do: ":         false,
		"  $else: ":       false,
		"  $append: ":     false,
		"  $assert : ":    true,
		"{$if: ":          true,
		"  x: {$for: \"p": true,
	} {
		if got := exprKey.MatchString(prefix); got != want {
			t.Errorf("%q: in an expression %v, want %v", prefix, got, want)
		}
	}
}
