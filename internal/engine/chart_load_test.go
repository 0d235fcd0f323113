package engine

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/chart"
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

// A remote chart goes through the engine's FetchChart with its pinned
// fields, and the path it gives is read from the file system whatever
// the Loader (reference §11); a failed fetch is an error at $chart.
func TestRender_remoteChartThroughFetchChart(t *testing.T) {
	demo, err := filepath.Abs("testdata/charts/demo")
	if err != nil {
		t.Fatal(err)
	}
	var asked []chart.Remote
	opts := Options{Loader: FSLoader{FS: fstest.MapFS{}}, FetchChart: func(_ context.Context, r chart.Remote) (string, error) {
		asked = append(asked, r)
		if r.Name == "missing" {
			return "", errors.New("404 Not Found")
		}
		return demo, nil
	}}
	e := New(opts)
	src := Source{Text: []byte("$chart: {repository: 'oci://registry.example/charts', name: demo, version: 0.1.0, digest: 'sha256:" + strings.Repeat("0", 64) + "'}\n$hooks: false\n$values: {sub: {enabled: false}}\n")}
	docs, err := e.Render(context.Background(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 3 || len(asked) != 1 || asked[0] != (chart.Remote{Repository: "oci://registry.example/charts", Name: "demo", Version: "0.1.0", Digest: "sha256:" + strings.Repeat("0", 64)}) {
		t.Fatalf("%d documents; asked %+v", len(docs), asked)
	}
	_, err = e.Render(context.Background(), Source{Text: []byte("$chart: {repository: 'https://charts.example.com', name: missing, version: 1.0.0}\n")}, nil)
	if want := "<inline>:1:9: $chart: cannot fetch the chart missing 1.0.0 from https://charts.example.com: 404 Not Found"; err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}
