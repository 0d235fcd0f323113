package engine

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"
)

// LoadChart gives check and the editor a chart's defaults and schema,
// read through the engine's Loader as a $chart reads it (reference §11).
func TestLoadChart_readsThroughTheLoader(t *testing.T) {
	for name, opts := range map[string]Options{
		"os": DefaultOptions(),
		"fs": {Loader: FSLoader{FS: os.DirFS(".")}},
	} {
		c, err := New(opts).LoadChart(context.Background(), "testdata/charts/demo")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		keys := make([]string, 0)
		for k := range c.Defaults() {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if c.Name() != "demo" || !slices.Equal(keys, []string{"image", "replicaCount", "service", "sub"}) || len(c.Schema()) == 0 {
			t.Fatalf("%s: name %q, default keys %v, schema %d bytes", name, c.Name(), keys, len(c.Schema()))
		}
	}
	abs, err := filepath.Abs("testdata/charts/demo")
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions()
	opts.Loader = OSLoader{Roots: []string{t.TempDir()}}
	if _, err := New(opts).LoadChart(context.Background(), abs); err == nil || err.Error() != ErrOutsideRoots.Error() {
		t.Fatalf("outside the roots: got %v", err)
	}
}

// check reads a $chart document's keys as directives, checks the names
// its values use, and finds a misspelt key, as a render would (reference
// §11).
func TestCheck_chartDocument(t *testing.T) {
	files := fstest.MapFS{
		"t.yaml": {Data: []byte(`$let:
  n: 2
$chart: charts/demo
$values:
  replicaCount: {$eval: "${{ m }}"}
$release: {name: web}
$includeCRDs: true
$hooks: false
$skipTests: true
$kubeVersion: v1.31.0
$apiVersions: [example.com/v1]
---
$chart: charts/demo
$valuse: {}
`)},
	}
	want := "t.yaml:5:25: $values.replicaCount.$eval: \"m\" is not declared: no $let, $for or $schema in scope and no values file (-f) declares it; did you mean 'n'?\n" +
		"t.yaml:14:1: $valuse: unknown directive $valuse: did you mean $values? To output a key $valuse as data, write $$valuse\n"
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// A $chart names a .tgz as it names a folder, relative to the template's
// folder (reference §11).
func TestRender_chartArchiveBesideTheTemplate(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, text := range map[string]string{
		"mini/Chart.yaml":        "apiVersion: v2\nname: mini\nversion: 0.1.0\n",
		"mini/values.yaml":       "greeting: hi\n",
		"mini/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: {{ .Release.Name }}}\ndata: {greeting: {{ .Values.greeting }}}\n",
	} {
		if err := tw.WriteHeader(&tar.Header{Name: name, Size: int64(len(text)), Mode: 0o644, Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "charts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "charts", "mini-0.1.0.tgz"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tmpl := filepath.Join(dir, "t.yaml")
	if err := os.WriteFile(tmpl, []byte("$chart: charts/mini-0.1.0.tgz\n$values: {greeting: hello}\n$release: {name: web}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	docs, err := New(DefaultOptions()).RenderFile(context.Background(), tmpl, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := EncodeYAMLStream(docs)
	if err != nil {
		t.Fatal(err)
	}
	if want := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  greeting: hello\n"; string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
}
