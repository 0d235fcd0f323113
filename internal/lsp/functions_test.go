package lsp

import (
	"testing"
)

// In an expression, a name begun completes to the CEL functions and
// macros it begins (language reference §5) after the names in scope; after
// a namespace and a dot, to that namespace's functions. Nothing begun
// offers only the names in scope, and a field of a $schema variable only
// its fields.
func TestLSP_expressionsCompleteCELFunctionsAfterTheNamesInScope(t *testing.T) {
	c, uri := openApp(t, `$schema:
  values:
    type: object
    properties:
      size: {type: integer}
    default: {size: 1}
$let:
  sizes: '[1, 2]'
a: {$eval: "${{ siz }}"}
b: {$eval: "${{ math.gr }}"}
c: {$eval: "${{ deepM }}"}
d: {$eval: "${{ values.si }}"}
e: {$eval: "${{  }}"}
f:
  $if: "sha"
`)
	c.next() // the diagnostics of the names not declared
	expect(t, "a name begun", c.call("textDocument/completion", pos(uri, 8, 19)),
		`{"isIncomplete":false,"items":[{"label":"sizes","kind":6,"detail":"$let name"},{"label":"size","kind":3,"detail":"CEL function size"}]}`)
	expect(t, "after a namespace", c.call("textDocument/completion", pos(uri, 9, 23)),
		`{"isIncomplete":false,"items":[{"label":"greatest","kind":3,"detail":"CEL function math.greatest"}]}`)
	expect(t, "a helper of celyaml's", c.call("textDocument/completion", pos(uri, 10, 21)),
		`{"isIncomplete":false,"items":[{"label":"deepMerge","kind":3,"detail":"CEL function deepMerge"}]}`)
	expect(t, "a field of a $schema variable", c.call("textDocument/completion", pos(uri, 11, 25)),
		`{"isIncomplete":false,"items":[{"label":"size","kind":5,"detail":"integer"}]}`)
	expect(t, "nothing begun", c.call("textDocument/completion", pos(uri, 12, 16)),
		`{"isIncomplete":false,"items":[{"label":"sizes","kind":6,"detail":"$let name"},{"label":"values","kind":6,"detail":"$schema variable: object"}]}`)
	expect(t, "in an $if", c.call("textDocument/completion", pos(uri, 14, 10)),
		`{"isIncomplete":false,"items":[{"label":"sha256","kind":3,"detail":"CEL function sha256"}]}`)
}
