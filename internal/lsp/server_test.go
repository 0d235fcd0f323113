package lsp

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// pipeEnd is one end of an in-process connection.
type pipeEnd struct {
	*io.PipeReader
	*io.PipeWriter
}

func (p pipeEnd) Close() error {
	_ = p.PipeReader.Close()
	return p.PipeWriter.Close()
}

// note is a notification the server sent.
type note struct {
	method string
	params string
}

// client is an editor talking to an in-process server.
type client struct {
	t     testing.TB
	conn  *jsonrpc2.Conn
	notes chan note
	done  chan struct{}
	dir   string
}

func startClient(t testing.TB, dir string) *client {
	return startServer(t, dir, New(Options{Engine: engine.DefaultOptions(), Version: "test"}))
}

func startServer(t testing.TB, dir string, srv *Server) *client {
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	c := &client{t: t, notes: make(chan note, 64), done: make(chan struct{}), dir: dir}
	go func() {
		_ = srv.Serve(context.Background(), pipeEnd{sr, sw})
		close(c.done)
	}()
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(pipeEnd{cr, cw}, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
			if req.Notif && req.Params != nil {
				c.notes <- note{req.Method, string(*req.Params)}
			}
			return nil, nil
		}))
	t.Cleanup(func() { _ = c.conn.Close() })
	return c
}

// call sends a request and gives its result as JSON, the test's
// directory written DIR.
func (c *client) call(method string, params any) string {
	c.t.Helper()
	var raw json.RawMessage
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.conn.Call(ctx, method, params, &raw); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	return strings.ReplaceAll(string(raw), c.dir, "DIR")
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// next is the next notification the server sends, as METHOD PARAMS.
func (c *client) next() string {
	c.t.Helper()
	select {
	case n := <-c.notes:
		return n.method + " " + strings.ReplaceAll(n.params, c.dir, "DIR")
	case <-time.After(10 * time.Second):
		c.t.Fatal("no notification within 10 s")
		return ""
	}
}

func expect(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n got %s\nwant %s", what, got, want)
	}
}

func pos(uri string, line, char int) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": char}}
}

const appTemplate = `$schema:
  values:
    type: object
    description: The chart's inputs.
    properties:
      replicaCount: {type: integer, description: How many pods run.}
      image:
        type: object
        properties:
          tag: {type: string, description: The image tag.}
    default: {replicaCount: 1, image: {tag: v1}}
$let:
  name: '"web"'
---
kind: Deployment
metadata:
  name: ${{ name }}
spec:
  replicas:
    $eval: "${{ values.replicaCount }}"
  tag: {$eval: "${{ values.image.tag }}"}
  parts:
    $include: part.yaml
`

// An editor's session: open a template, see check's problems, edit it,
// see them again, complete, hover, jump, and leave.
func TestLSP_anEditorSessionGetsChecksProblemsCompletionHoverAndDefinitions(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "part.yaml"), []byte("part: {$eval: name}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := startClient(t, dir)
	app, part := pathURI(filepath.Join(dir, "app.yaml")), pathURI(filepath.Join(dir, "part.yaml"))

	expect(t, "initialize", c.call("initialize", map[string]any{"processId": nil, "rootUri": pathURI(dir), "capabilities": map[string]any{}}),
		`{"capabilities":{"textDocumentSync":{"openClose":true,"change":1},"completionProvider":{"triggerCharacters":["$","."]},"hoverProvider":true,"definitionProvider":true},"serverInfo":{"name":"celyaml","version":"test"}}`)
	c.notify("initialized", map[string]any{})

	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": app, "languageId": "yaml", "version": 1, "text": appTemplate}})
	expect(t, "diagnostics after didOpen", c.next(), `textDocument/publishDiagnostics {"diagnostics":[{"message":"metadata.name: plain string holds ${{ name }} and name is a variable in scope, but a plain string is not evaluated: write $eval: \"${{ name }}\" to interpolate it","range":{"end":{"character":11,"line":16},"start":{"character":8,"line":16}},"severity":2,"source":"celyaml"}],"uri":"file://DIR/app.yaml"}`)

	// The open buffer of part.yaml stands in for the file on disk.
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": part, "languageId": "yaml", "version": 1, "text": "part: {$eval: '${{ name + }}'}\n"}})
	expect(t, "diagnostics of part.yaml", c.next(), `textDocument/publishDiagnostics {"diagnostics":[{"message":"part.$eval: Syntax error: the expression ends too early, expecting a value","range":{"end":{"character":27,"line":0},"start":{"character":26,"line":0}},"severity":1,"source":"celyaml"}],"uri":"file://DIR/part.yaml"}`)
	expect(t, "diagnostics of app.yaml, which includes part.yaml", c.next(), `textDocument/publishDiagnostics {"diagnostics":[{"message":"metadata.name: plain string holds ${{ name }} and name is a variable in scope, but a plain string is not evaluated: write $eval: \"${{ name }}\" to interpolate it","range":{"end":{"character":11,"line":16},"start":{"character":8,"line":16}},"severity":2,"source":"celyaml"},{"message":"DIR/part.yaml:1:15: part.$eval: Syntax error: the expression ends too early, expecting a value","range":{"end":{"character":13,"line":22},"start":{"character":4,"line":22}},"severity":1,"source":"celyaml"}],"uri":"file://DIR/app.yaml"}`)

	// A CEL syntax error after a character that takes two UTF-16 units.
	changed := strings.Replace(appTemplate, `{$eval: "${{ values.image.tag }}"}`, `{$eval: "${{ '😀' + ) }}"}`, 1)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": app, "version": 2}, "contentChanges": []any{map[string]any{"text": changed}}})
	expect(t, "diagnostics after didChange", c.next(), `textDocument/publishDiagnostics {"diagnostics":[{"message":"metadata.name: plain string holds ${{ name }} and name is a variable in scope, but a plain string is not evaluated: write $eval: \"${{ name }}\" to interpolate it","range":{"end":{"character":11,"line":16},"start":{"character":8,"line":16}},"severity":2,"source":"celyaml"},{"message":"spec.tag.$eval: Syntax error: mismatched input ')' expecting a value","range":{"end":{"character":28,"line":20},"start":{"character":27,"line":20}},"severity":1,"source":"celyaml"},{"message":"DIR/part.yaml:1:15: part.$eval: Syntax error: the expression ends too early, expecting a value","range":{"end":{"character":13,"line":22},"start":{"character":4,"line":22}},"severity":1,"source":"celyaml"}],"uri":"file://DIR/app.yaml"}`)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": app, "version": 3}, "contentChanges": []any{map[string]any{"text": appTemplate}}})
	expect(t, "diagnostics after the fix", c.next(), `textDocument/publishDiagnostics {"diagnostics":[{"message":"metadata.name: plain string holds ${{ name }} and name is a variable in scope, but a plain string is not evaluated: write $eval: \"${{ name }}\" to interpolate it","range":{"end":{"character":11,"line":16},"start":{"character":8,"line":16}},"severity":2,"source":"celyaml"},{"message":"DIR/part.yaml:1:15: part.$eval: Syntax error: the expression ends too early, expecting a value","range":{"end":{"character":13,"line":22},"start":{"character":4,"line":22}},"severity":1,"source":"celyaml"}],"uri":"file://DIR/app.yaml"}`)

	expect(t, "completion of values.", c.call("textDocument/completion", pos(app, 19, 23)), `{"isIncomplete":false,"items":[{"label":"replicaCount","kind":5,"detail":"integer","documentation":"How many pods run."},{"label":"image","kind":5,"detail":"object"}]}`)
	expect(t, "completion of values.image.", c.call("textDocument/completion", pos(app, 20, 33)), `{"isIncomplete":false,"items":[{"label":"tag","kind":5,"detail":"string","documentation":"The image tag."}]}`)
	expect(t, "completion of names", c.call("textDocument/completion", pos(app, 16, 12)), `{"isIncomplete":false,"items":[{"label":"name","kind":6,"detail":"$let name"},{"label":"values","kind":6,"detail":"$schema variable: object","documentation":"The chart's inputs."}]}`)
	expect(t, "hover on values", c.call("textDocument/hover", pos(app, 19, 18)), "{\"contents\":{\"kind\":\"markdown\",\"value\":\"`values`: $schema variable of type object, bound at app.yaml:2:3\\n\\nThe chart's inputs.\"},\"range\":{\"start\":{\"line\":19,\"character\":16},\"end\":{\"line\":19,\"character\":22}}}")
	expect(t, "hover on a field", c.call("textDocument/hover", pos(app, 20, 29)), "{\"contents\":{\"kind\":\"markdown\",\"value\":\"`values.image`: object\\n\\nfield of $schema variable `values`, bound at app.yaml:2:3\"},\"range\":{\"start\":{\"line\":20,\"character\":27},\"end\":{\"line\":20,\"character\":32}}}")
	expect(t, "definition of name", c.call("textDocument/definition", pos(app, 16, 12)), `[{"uri":"file://DIR/app.yaml","range":{"start":{"line":12,"character":2},"end":{"line":12,"character":6}}}]`)
	expect(t, "definition of an $include", c.call("textDocument/definition", pos(app, 22, 16)), `[{"uri":"file://DIR/part.yaml","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}]`)

	// A $ key being typed: the YAML does not parse, and directives are offered.
	typing := strings.Replace(appTemplate, "  parts:\n", "  $fo\n  parts:\n", 1)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": app, "version": 4}, "contentChanges": []any{map[string]any{"text": typing}}})
	expect(t, "diagnostics while typing a directive", c.next(), `textDocument/publishDiagnostics {"diagnostics":[{"message":"invalid YAML: could not find expected ':'","range":{"end":{"character":1,"line":21},"start":{"character":0,"line":21}},"severity":1,"source":"celyaml"}],"uri":"file://DIR/app.yaml"}`)
	expect(t, "completion of directives", c.call("textDocument/completion", pos(app, 21, 5)), `{"isIncomplete":false,"items":[{"label":"$for","kind":14,"textEdit":{"range":{"start":{"line":21,"character":2},"end":{"line":21,"character":5}},"newText":"$for"}}]}`)

	expect(t, "shutdown", c.call("shutdown", nil), `null`)
	c.notify("exit", nil)
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not end after exit")
	}
}

// openApp starts an editor in a new directory, initializes the server and
// opens app.yaml there holding text; it gives the editor and the file's URI.
func openApp(t testing.TB, text string) (*client, string) {
	t.Helper()
	dir := t.TempDir()
	c := startClient(t, dir)
	uri := pathURI(filepath.Join(dir, "app.yaml"))
	c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
	return c, uri
}
