package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The editor schema as editors show it: the real yaml-language-server
// (the server behind the YAML support of VS Code, Neovim, Helix, …),
// installed from npm by scripts/yaml-language-server.sh into a cache
// outside the clone, is given schemas/celyaml.schema.json and a template,
// and the test asserts its diagnostics, message and range. It needs node;
// without it the test skips. The script installs the server on first use
// (npm is the only download); CELYAML_NO_NPM_INSTALL=1 makes the test skip
// instead when the server is not installed yet.
func TestEditorSchema_yamlLanguageServerShowsOurMessages(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH, so yaml-language-server cannot run: install Node.js to run this test")
	}
	server := yamlLanguageServer(t)

	dir := t.TempDir()
	schemaFile, err := filepath.Abs("../../schemas/celyaml.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := "app:\n  $fro: \"x in xs\"\n  $do: {}\nfiles:\n  $include: 42\nok:\n  $include: other.yaml\nid:\n  $ref: '#/x'\n" +
		"$schema:\n  values: {$include: 7}\n  chart: {$include: values.schema.json}\n"
	docURI := "file://" + filepath.ToSlash(filepath.Join(dir, "template.yaml"))

	lsp := startLSP(t, node, server)
	lsp.request("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": "file://" + filepath.ToSlash(dir),
		"capabilities": map[string]any{"workspace": map[string]any{"configuration": true},
			"textDocument": map[string]any{"publishDiagnostics": map[string]any{}}},
	})
	lsp.notify("initialized", map[string]any{})
	lsp.settings = map[string]any{"yaml": map[string]any{
		"validate": true, "hover": true, "completion": true,
		"schemaStore": map[string]any{"enable": false},
		"schemas":     map[string]any{"file://" + filepath.ToSlash(schemaFile): "*.yaml"},
	}}
	lsp.notify("workspace/didChangeConfiguration", map[string]any{"settings": lsp.settings})
	lsp.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": docURI, "languageId": "yaml", "version": 1, "text": doc,
	}})

	got := lsp.diagnostics(docURI, 5)
	want := []string{
		// The misspelt $for, and so the $do left without its partner.
		"2:3-2:7 unknown directive `$fro`; did you mean `$for`?",
		"2:3-4:1 Object is missing property $for required by property $do.",
		"5:13-5:15 $include takes a file path string, or a mapping such as {$eval: …} that gives one",
		"9:3-9:7 `$ref` is a JSON Schema keyword, not a directive: write `$$ref` to output it as data",
		"11:22-11:23 $include in $schema takes the path of a JSON or YAML file holding the variable's schema",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("yaml-language-server said:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// yamlLanguageServer gives the server's entry point, installed by the
// script unless CELYAML_NO_NPM_INSTALL is set.
func yamlLanguageServer(t *testing.T) string {
	t.Helper()
	script, err := filepath.Abs("../../scripts/yaml-language-server.sh")
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("CELYAML_NO_NPM_INSTALL") != "" {
		out, err := exec.Command(script, "--installed").Output()
		if err != nil {
			t.Skip("yaml-language-server is not installed and CELYAML_NO_NPM_INSTALL is set: run scripts/yaml-language-server.sh")
		}
		return strings.TrimSpace(string(out))
	}
	var stderr bytes.Buffer
	cmd := exec.Command(script)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scripts/yaml-language-server.sh: %v\n%s", err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// lspConn speaks JSON-RPC with Content-Length framing to a language server.
type lspConn struct {
	t        *testing.T
	in       io.WriteCloser
	out      *bufio.Reader
	nextID   int
	settings any
	msgs     chan map[string]any
}

func startLSP(t *testing.T, node, server string) *lspConn {
	t.Helper()
	cmd := exec.Command(node, server, "--stdio")
	in, out, stderr := startPiped(t, cmd)
	c := &lspConn{t: t, in: in, out: out, msgs: make(chan map[string]any, 64)}
	go c.read()
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }() // its exit status says nothing: stdin closed
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill() // already gone is fine
			<-done
		}
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("yaml-language-server stderr:\n%s", stderr.String())
		}
	})
	return c
}

// read delivers every message the server sends until it closes.
func (c *lspConn) read() {
	defer close(c.msgs)
	for {
		body, err := readFrame(c.out)
		if err != nil {
			return
		}
		var m map[string]any
		if json.Unmarshal(body, &m) == nil {
			c.msgs <- m
		}
	}
}

func (c *lspConn) send(m map[string]any) {
	m["jsonrpc"] = "2.0"
	b, err := json.Marshal(m)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(b), b); err != nil {
		c.t.Fatal(err)
	}
}

func (c *lspConn) request(method string, params any) {
	c.nextID++
	c.send(map[string]any{"id": c.nextID, "method": method, "params": params})
}

func (c *lspConn) notify(method string, params any) {
	c.send(map[string]any{"method": method, "params": params})
}

// answer replies to a request of the server: the settings for
// workspace/configuration, null for anything else.
func (c *lspConn) answer(m map[string]any) {
	var result any
	if m["method"] == "workspace/configuration" {
		items, _ := m["params"].(map[string]any)["items"].([]any)
		res := make([]any, len(items))
		for i, it := range items {
			section, _ := it.(map[string]any)["section"].(string)
			s, _ := c.settings.(map[string]any)
			res[i] = s[section]
		}
		result = res
	}
	c.send(map[string]any{"id": m["id"], "result": result})
}

// diagnostics waits for a publishDiagnostics for uri with at least n
// diagnostics, answering the server's requests meanwhile, and gives them
// as "LINE:COL-LINE:COL MESSAGE" (from 1), sorted by position and then
// message.
func (c *lspConn) diagnostics(uri string, n int) []string {
	c.t.Helper()
	deadline := time.After(90 * time.Second)
	var last []string
	for {
		select {
		case <-deadline:
			c.t.Fatalf("no publishDiagnostics with %d diagnostics within 90 s; the last had:\n%s", n, strings.Join(last, "\n"))
		case m, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("yaml-language-server exited; the last diagnostics:\n%s", strings.Join(last, "\n"))
			}
			if _, isReq := m["id"]; isReq && m["method"] != nil {
				c.answer(m)
				continue
			}
			if m["method"] != "textDocument/publishDiagnostics" {
				continue
			}
			p, _ := m["params"].(map[string]any)
			if p["uri"] != uri {
				continue
			}
			ds, _ := p["diagnostics"].([]any)
			last = last[:0]
			for _, d := range ds {
				last = append(last, diagnosticLine(d.(map[string]any)))
			}
			if len(last) >= n {
				slices.SortFunc(last, compareDiagnostics)
				return last
			}
		}
	}
}

// compareDiagnostics orders "LINE:COL-… MESSAGE" lines by start
// position, then text.
func compareDiagnostics(a, b string) int {
	start := func(s string) (int, int) {
		var l, c int
		_, _ = fmt.Sscanf(s, "%d:%d", &l, &c) // diagnosticLine wrote it
		return l, c
	}
	al, ac := start(a)
	bl, bc := start(b)
	if al != bl {
		return al - bl
	}
	if ac != bc {
		return ac - bc
	}
	return strings.Compare(a, b)
}

func diagnosticLine(d map[string]any) string {
	r, _ := d["range"].(map[string]any)
	pos := func(k string) string {
		p, _ := r[k].(map[string]any)
		line, _ := p["line"].(float64)
		ch, _ := p["character"].(float64)
		return fmt.Sprintf("%d:%d", int(line)+1, int(ch)+1)
	}
	return pos("start") + "-" + pos("end") + " " + fmt.Sprint(d["message"])
}

// startPiped starts cmd with pipes to its standard input and output and
// its standard error kept.
func startPiped(t *testing.T, cmd *exec.Cmd) (io.WriteCloser, *bufio.Reader, *bytes.Buffer) {
	t.Helper()
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return in, bufio.NewReader(out), stderr
}

// readFrame reads the body of one message in the protocol's framing
// (headers, a blank line, Content-Length bytes).
func readFrame(r *bufio.Reader) ([]byte, error) {
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	if n < 0 {
		return nil, errors.New("a message without Content-Length")
	}
	body := make([]byte, n)
	_, err := io.ReadFull(r, body)
	return body, err
}
