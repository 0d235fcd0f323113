package lsp

import (
	"os"
	"path/filepath"
	"testing"
)

// The CLI guide's "Language server" example: the syntax error it shows,
// the completion after values. and the hover on values.
func TestLSP_theGuidesExampleShowsWhatTheGuideSays(t *testing.T) {
	c, uri := openApp(t, `$schema:
  values:
    type: object
    description: The chart's inputs.
    properties:
      replicaCount: {type: integer, description: How many pods run.}
    default: {replicaCount: 1}
spec:
  replicas: {$eval: "${{ values.replicaCount + }}"}
`)
	expect(t, "diagnostics", c.next(), `textDocument/publishDiagnostics {"diagnostics":[{"message":"spec.replicas.$eval: Syntax error: the expression ends too early, expecting a value","range":{"end":{"character":48,"line":8},"start":{"character":47,"line":8}},"severity":1,"source":"celyaml"}],"uri":"file://DIR/app.yaml"}`)
	expect(t, "completion", c.call("textDocument/completion", pos(uri, 8, 32)), `{"isIncomplete":false,"items":[{"label":"replicaCount","kind":5,"detail":"integer","documentation":"How many pods run."}]}`)
	expect(t, "hover", c.call("textDocument/hover", pos(uri, 8, 27)), "{\"contents\":{\"kind\":\"markdown\",\"value\":\"`values`: $schema variable of type object, bound at app.yaml:2:3\\n\\nThe chart's inputs.\"},\"range\":{\"start\":{\"line\":8,\"character\":25},\"end\":{\"line\":8,\"character\":31}}}")
}

// The CLI guide's typo example (examples/check-typo/app.yaml, the file its
// screenshot shows): the editor underlines the misspelt field with check's
// message, and offers the fields the $schema declares after `values.`.
func TestLSP_theGuidesTypoExampleIsUnderlinedWithChecksMessage(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "..", "examples", "check-typo", "app.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	c, uri := openApp(t, string(text))
	expect(t, "diagnostics", c.next(), `textDocument/publishDiagnostics {"diagnostics":[{"message":"spec.replicas.$eval: undefined field 'replicaCont'; did you mean replicaCount?","range":{"end":{"character":23,"line":27},"start":{"character":22,"line":27}},"severity":1,"source":"celyaml"}],"uri":"file://DIR/app.yaml"}`)
	expect(t, "completion", c.call("textDocument/completion", pos(uri, 27, 23)), `{"isIncomplete":false,"items":[{"label":"replicaCount","kind":5,"detail":"integer","documentation":"How many pods run."},{"label":"image","kind":5,"detail":"object"},{"label":"service","kind":5,"detail":"object"}]}`)
}
