package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// callErr sends a request that must fail and gives its error.
func (c *client) callErr(method string, params any) string {
	c.t.Helper()
	var raw json.RawMessage
	err := c.conn.Call(context.Background(), method, params, &raw)
	if err == nil {
		c.t.Fatalf("%s: no error, result %s", method, raw)
	}
	return err.Error()
}

// Bad input gets an error reply, a bug in one request is an error reply,
// a document over the engine's size limit is a diagnostic, and the
// session goes on after each.
func TestLSP_badInputGetsAnErrorAndTheSessionGoesOn(t *testing.T) {
	dir := t.TempDir()
	opts := engine.DefaultOptions()
	opts.MaxTemplateBytes = 1000
	srv := New(Options{Engine: opts})
	srv.handler.TextDocumentSignatureHelp = func(*glsp.Context, *protocol.SignatureHelpParams) (*protocol.SignatureHelp, error) {
		panic("a bug")
	}
	c := startServer(t, dir, srv)
	uri := pathURI(filepath.Join(dir, "a.yaml"))

	expect(t, "a request before initialize", c.callErr("textDocument/hover", pos(uri, 0, 0)), "jsonrpc2: code -32600 message: server not initialized")
	c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	expect(t, "params of the wrong shape", c.callErr("textDocument/hover", []int{1, 2}),
		"jsonrpc2: code -32602 message: json: cannot unmarshal array into Go value of type protocol.HoverParams")
	expect(t, "an unknown method", c.callErr("textDocument/frobnicate", map[string]any{}), "jsonrpc2: code -32601 message: method not supported: textDocument/frobnicate")
	expect(t, "a panic", c.callErr("textDocument/signatureHelp", pos(uri, 0, 0)),
		"jsonrpc2: code -32603 message: celyaml lsp: internal error while answering textDocument/signatureHelp; the server goes on")
	expect(t, "hover on a document that is not open", c.call("textDocument/hover", pos(uri, 3, 4)), "null")

	big := "a: " + strings.Repeat("x", 2000) + "\n"
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": big}})
	expect(t, "a document over MaxTemplateBytes", c.next(), `textDocument/publishDiagnostics {"diagnostics":[{"message":"template is 2004 bytes, more than MaxTemplateBytes (1000); if this is intended, raise it with the command line's --max-template-bytes (reference §7)","range":{"end":{"character":2,"line":0},"start":{"character":0,"line":0}},"severity":1,"source":"celyaml"}],"uri":"file://DIR/a.yaml"}`)
	expect(t, "completion far past the end", c.call("textDocument/completion", pos(uri, 99, 99)), `{"isIncomplete":false,"items":[]}`)
	expect(t, "hover far past a line's end", c.call("textDocument/hover", pos(uri, 0, 5000)), "null")
	expect(t, "shutdown", c.call("shutdown", nil), "null")
}

// blockingLoader reads every file as "x: 1", once release is closed.
type blockingLoader struct{ reading, release chan struct{} }

func (l blockingLoader) ReadFile(ctx context.Context, _ string, _ int) ([]byte, error) {
	l.reading <- struct{}{}
	select {
	case <-l.release:
		return []byte("x: 1\n"), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// A check that takes long (here: an $include whose file is slow to
// read) does not hold up the requests that come meanwhile.
func TestLSP_aLongCheckDoesNotHoldUpCompletion(t *testing.T) {
	dir := t.TempDir()
	l := blockingLoader{reading: make(chan struct{}, 8), release: make(chan struct{})}
	opts := engine.DefaultOptions()
	opts.Loader = l
	c := startServer(t, dir, New(Options{Engine: opts}))
	uri := pathURI(filepath.Join(dir, "a.yaml"))
	c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1,
		"text": "$let: {name: '\"web\"'}\nslow: {$include: slow.yaml}\nv: {$eval: \"${{ n }}\"}\n"}})
	<-l.reading // the check is reading slow.yaml
	expect(t, "completion while the check runs", c.call("textDocument/completion", pos(uri, 2, 16)),
		`{"isIncomplete":false,"items":[{"label":"name","kind":6,"detail":"$let name"}]}`)
	close(l.release)
	expect(t, "diagnostics once the file is read", c.next(), `textDocument/publishDiagnostics {"diagnostics":[{"message":"v.$eval: \"n\" is not declared: no $let, $for or $schema in scope and no values file (-f) declares it","range":{"end":{"character":17,"line":2},"start":{"character":16,"line":2}},"severity":1,"source":"celyaml"}],"uri":"file://DIR/a.yaml"}`)
}
