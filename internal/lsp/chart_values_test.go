package lsp

import (
	"os"
	"path/filepath"
	"testing"
)

// A $values key the chart's values.yaml does not have is underlined as a
// warning, at the key, with check's message and "did you mean"
// (reference §11 `$chart`), read from the chart on disk beside the open
// template.
func TestLSP_aValuesTypoIsAWarningAtTheKey(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"charts/web/Chart.yaml":               "apiVersion: v2\nname: web\nversion: 0.1.0\n",
		"charts/web/values.yaml":              "replicaCount: 1\ncrds: {enabled: false}\n",
		"charts/web/templates/configmap.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := startClient(t, dir)
	uri := pathURI(filepath.Join(dir, "app.yaml"))
	c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1,
		"text": "$chart: charts/web\n$values:\n  crds: {enabeld: true}\n"}})
	expect(t, "diagnostics", c.next(), `textDocument/publishDiagnostics {"diagnostics":[{"message":"$values.crds.enabeld: the chart's values.yaml has no key crds.enabeld: Helm ignores it without a word; did you mean enabled?","range":{"end":{"character":17,"line":2},"start":{"character":9,"line":2}},"severity":2,"source":"celyaml"}],"uri":"file://DIR/app.yaml"}`)
}
