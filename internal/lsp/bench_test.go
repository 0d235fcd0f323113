package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// benchTemplate is a template of about lines lines: a $schema with
// defaults and a $let, then Deployments and Services that read them, so
// that check compiles every expression and renders the whole.
func benchTemplate(lines int) string {
	var b strings.Builder
	b.WriteString(`$schema:
  values:
    type: object
    description: The inputs.
    properties:
      replicas: {type: integer}
      image: {type: string}
      ports: {type: array, items: {type: integer}}
    default: {replicas: 2, image: "nginx:1.27", ports: [80, 443]}
$let:
  app: '"web"'
  labels: '{"app": app, "tier": "frontend"}'
`)
	for i := 0; strings.Count(b.String(), "\n") < lines; i++ {
		fmt.Fprintf(&b, `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {$eval: "${{ app }}-%[1]d"}
  labels: {$eval: labels}
spec:
  replicas: {$eval: "${{ values.replicas + %[1]d }}"}
  selector: {matchLabels: {$eval: labels}}
  template:
    spec:
      containers:
        - name: main
          image: {$eval: "${{ values.image }}"}
          ports:
            - $for: p in values.ports
              $do: {containerPort: {$eval: "${{ p }}"}}
`, i)
	}
	return b.String()
}

// From a change to the diagnostics it brings, on a 1,000-line template:
// what the user waits for after a keystroke (the target is 50 ms).
func BenchmarkLSP_diagnosticsAfterChange(b *testing.B) {
	dir := b.TempDir()
	c := startClient(b, dir)
	uri := pathURI(filepath.Join(dir, "big.yaml"))
	text := benchTemplate(1000)
	c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
	if got := c.next(); !strings.Contains(got, `"diagnostics":[]`) {
		b.Fatalf("the benchmark template has problems: %s", got)
	}
	b.ResetTimer()
	for i := range b.N {
		// Each change is a new text, as each keystroke is: nothing cached.
		changed := text + fmt.Sprintf("# edit %d\n", i)
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": i + 2}, "contentChanges": []any{map[string]any{"text": changed}}})
		if got := c.next(); !strings.Contains(got, `"diagnostics":[]`) {
			b.Fatalf("diagnostics: %s", got)
		}
	}
}

func TestLSP_benchTemplateHasAThousandLinesAndNoProblem(t *testing.T) {
	text := benchTemplate(1000)
	if n := strings.Count(text, "\n"); n < 1000 || n > 1020 {
		t.Fatalf("%d lines", n)
	}
}
