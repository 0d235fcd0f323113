package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// `celyaml render` renders a $chart document through the engine
// (reference §11): the chart's documents, then a transform over them.
func TestRender_chartDocument(t *testing.T) {
	dir := t.TempDir()
	charts, err := filepath.Abs("../engine/testdata/charts")
	if err != nil {
		t.Fatal(err)
	}
	tmpl := "$chart: " + filepath.Join(charts, "demo") + "\n$values: {replicaCount: 2, sub: {enabled: false}}\n$release: {name: web}\n$hooks: false\n" +
		"---\n$transform: {namespace: apps}\n"
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(tmpl), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"render", filepath.Join(dir, "t.yaml"), "-o", "json"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := `[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web-demo-caps","namespace":"apps"},"data":{"kubeVersion":"v1.37.0","hasWidgets":"false","lookup":"0","file":"hello from a file","tpl":"web-tpl"}},` +
		`{"apiVersion":"v1","kind":"Service","metadata":{"name":"web-demo","namespace":"apps"},"spec":{"selector":{"app":"web-demo"},"ports":[{"port":80}]}},` +
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web-demo","namespace":"apps","labels":{"app.kubernetes.io/name":"demo","app.kubernetes.io/instance":"web","app.kubernetes.io/managed-by":"Helm"}},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web-demo"}},"template":{"metadata":{"labels":{"app":"web-demo"}},"spec":{"containers":[{"name":"demo","image":"ghcr.io/example/demo:1.2.3","ports":[{"containerPort":80}]}]}}}}]` + "\n"
	if got := stdout.String(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
