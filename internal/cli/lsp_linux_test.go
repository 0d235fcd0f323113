package cli

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"
)

// `celyaml lsp` as an editor starts it: a process of its own, spoken to
// on its standard input and output with the protocol's framing, from
// initialize to exit; it answers, then ends with code 0.
func TestLSP_theCommandServesAnEditorOnStdio(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "CELYAML_HELPER_PROCESS=1", "CELYAML_HELPER_ARGS=lsp")
	stdin, r, stderr := startPiped(t, cmd)
	defer func() { _ = cmd.Process.Kill() }()
	send := func(msg string) {
		t.Helper()
		if _, err := fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(msg), msg); err != nil {
			t.Fatal(err)
		}
	}
	receive := func() string {
		t.Helper()
		got := make(chan string, 1)
		go func() {
			body, err := readFrame(r)
			if err != nil {
				got <- "read error: " + err.Error()
				return
			}
			got <- string(body)
		}()
		select {
		case s := <-got:
			return s
		case <-time.After(20 * time.Second):
			t.Fatal("no answer in 20 s")
			return ""
		}
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"capabilities":{}}}`)
	if got, want := receive(), `{"id":1,"result":{"capabilities":{"textDocumentSync":{"openClose":true,"change":1},"completionProvider":{"triggerCharacters":["$","."]},"hoverProvider":true,"definitionProvider":true},"serverInfo":{"name":"celyaml","version":"dev"}},"jsonrpc":"2.0"}`; got != want {
		t.Errorf("initialize:\n got %s\nwant %s", got, want)
	}
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:Untitled-1","languageId":"yaml","version":1,"text":"a: {$eval: \"${{ 1 + }}\"}\n"}}}`)
	if got, want := receive(), `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"untitled:Untitled-1","diagnostics":[{"range":{"start":{"line":0,"character":20},"end":{"line":0,"character":21}},"severity":1,"source":"celyaml","message":"a.$eval: Syntax error: the expression ends too early, expecting a value"}]}}`; got != want {
		t.Errorf("diagnostics:\n got %s\nwant %s", got, want)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	if got, want := receive(), `{"id":2,"result":null,"jsonrpc":"2.0"}`; got != want {
		t.Errorf("shutdown:\n got %s\nwant %s", got, want)
	}
	send(`{"jsonrpc":"2.0","method":"exit"}`)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit: %v; stderr: %s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not end in 20 s after exit")
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %q", stderr.String())
	}
}
