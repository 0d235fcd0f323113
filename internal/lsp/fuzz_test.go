package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// Whatever the text and wherever the cursor, the handlers answer without
// a panic (a recover in the server would hide one; here there is none).
func FuzzLSP_handlersNeverPanic(f *testing.F) {
	f.Add(appTemplate, uint32(19), uint32(23))
	f.Add("$let: {a: 1}\nb: ${{ a.\n", uint32(1), uint32(9))
	f.Add("x: {$eval: \"${{ '😀' + ) }}\"}\n", uint32(0), uint32(22))
	f.Add("  $fo", uint32(0), uint32(5))
	f.Add("a:\r\n  $if: a.b.\r\n", uint32(1), uint32(12))
	f.Add("$schema: {v: {$include: x.json}}\nk: {$include: ''}\n", uint32(1), uint32(15))
	f.Fuzz(func(t *testing.T, text string, line, char uint32) {
		if len(text) > 4096 {
			return
		}
		dir := t.TempDir()
		s := New(Options{Engine: engine.DefaultOptions()})
		uri := pathURI(filepath.Join(dir, "f.yaml"))
		d := s.docs.put(uri, text)
		_ = s.diagnostics(d)
		ctx := &glsp.Context{Notify: func(string, any) {}}
		p := protocol.Position{Line: line % 64, Character: char % 256}
		doc := protocol.TextDocumentIdentifier{URI: uri}
		tp := protocol.TextDocumentPositionParams{TextDocument: doc, Position: p}
		if _, err := s.completion(ctx, &protocol.CompletionParams{TextDocumentPositionParams: tp}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: tp}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.definition(ctx, &protocol.DefinitionParams{TextDocumentPositionParams: tp}); err != nil {
			t.Fatal(err)
		}
		_ = offsetOf(text, p)
	})
}

// A value never shows: a default that breaks its own schema is reported
// by where it is, not by what it is.
func TestLSP_diagnosticsNeverShowAValue(t *testing.T) {
	c, _ := openApp(t, "$schema:\n  password: {type: string, pattern: '^[a-z]+$', default: 'S3cr3t!'}\nv: {$eval: \"${{ password }}\"}\n")
	got := c.next()
	if strings.Contains(got, "S3cr3t") {
		t.Errorf("the value shows: %s", got)
	}
	expect(t, "diagnostics", got, `textDocument/publishDiagnostics {"diagnostics":[{"message":"$schema: default for \"password\" does not match its schema: password: does not match pattern \"^[a-z]+$\"","range":{"end":{"character":67,"line":1},"start":{"character":57,"line":1}},"severity":1,"source":"celyaml"}],"uri":"file://DIR/app.yaml"}`)
}
