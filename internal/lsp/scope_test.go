package lsp

import (
	"testing"
)

// A $let entry's value is an expression: it completes the entries before
// it; a $for variable is found, described and jumped to.
func TestLSP_letEntriesCompleteTheNamesBeforeThemAndForVariablesAreFound(t *testing.T) {
	c, uri := openApp(t, `$let:
  base: '"web"'
  full: base + "-x"
items:
  - $for: "port, i in [80, 443]"
    $do: {n: {$eval: "${{ port }}"}}
`)
	expect(t, "diagnostics", c.next(), `textDocument/publishDiagnostics {"diagnostics":[],"uri":"file://DIR/app.yaml"}`)
	expect(t, "completion in a $let entry", c.call("textDocument/completion", pos(uri, 2, 9)), `{"isIncomplete":false,"items":[{"label":"base","kind":6,"detail":"$let name"},`+
		`{"label":"base64.decode","kind":3,"detail":"CEL function base64.decode"},{"label":"base64.encode","kind":3,"detail":"CEL function base64.encode"},`+
		`{"label":"bool","kind":3,"detail":"CEL function bool"},{"label":"bytes","kind":3,"detail":"CEL function bytes"}]}`)
	expect(t, "completion in the first $let entry", c.call("textDocument/completion", pos(uri, 1, 8)), `{"isIncomplete":false,"items":[]}`)
	expect(t, "hover on a $for variable", c.call("textDocument/hover", pos(uri, 5, 27)), "{\"contents\":{\"kind\":\"markdown\",\"value\":\"`port`: $for variable, bound at app.yaml:5:12\"},\"range\":{\"start\":{\"line\":5,\"character\":26},\"end\":{\"line\":5,\"character\":30}}}")
	expect(t, "definition of a $for variable", c.call("textDocument/definition", pos(uri, 5, 27)), `[{"uri":"file://DIR/app.yaml","range":{"start":{"line":4,"character":11},"end":{"line":4,"character":15}}}]`)
	expect(t, "hover on a $let name in a $let entry", c.call("textDocument/hover", pos(uri, 2, 9)), "{\"contents\":{\"kind\":\"markdown\",\"value\":\"`base`: $let name, bound at app.yaml:2:3\"},\"range\":{\"start\":{\"line\":2,\"character\":8},\"end\":{\"line\":2,\"character\":12}}}")
}
