package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"helm.sh/helm/v4/pkg/chart/common"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	"helm.sh/helm/v4/pkg/repo/v1/repotest"
)

// TestRender_remoteChartFromALocalRepository renders a remote $chart
// (reference §11) through the command: check downloads it from Helm's
// test chart repository on 127.0.0.1 into the cache folder
// ($CELYAML_CACHE), render reads it from there, and again with the
// repository stopped.
func TestRender_remoteChartFromALocalRepository(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("CELYAML_CACHE", cache)
	ch := &chart.Chart{
		Metadata: &chart.Metadata{APIVersion: chart.APIVersionV2, Name: "hello", Version: "1.2.3", Type: "application"},
		Values:   map[string]any{"greeting": "hello", "replicas": 1},
		// Save writes values.yaml from Raw, not from Values; without it
		// check rightly warns that the chart has no such keys.
		Raw: []*common.File{{Name: "values.yaml", Data: []byte("greeting: hello\nreplicas: 1\n")}},
		Templates: []*common.File{{
			Name: "templates/configmap.yaml",
			Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n  namespace: {{ .Release.Namespace }}\ndata:\n  greeting: {{ .Values.greeting | quote }}\n  replicas: {{ .Values.replicas | quote }}\n"),
		}},
	}
	tgz, err := chartutil.Save(ch, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv := repotest.NewTempServer(t, repotest.WithChartSourceGlob(tgz))
	t.Cleanup(srv.Stop)

	dir := t.TempDir()
	template := filepath.Join(dir, "app.yaml")
	text := "$chart: {repository: \"" + srv.URL() + "\", name: hello, version: 1.2.3}\n" +
		"$values: {greeting: hi, replicas: 3}\n" +
		"$release: {name: web, namespace: prod}\n"
	if err := os.WriteFile(template, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: prod\ndata:\n  greeting: hi\n  replicas: \"3\"\n"

	render := func() (string, string, int) {
		var stdout, stderr bytes.Buffer
		code := run(t.Context(), []string{"render", template}, strings.NewReader(""), &stdout, &stderr)
		return stdout.String(), stderr.String(), code
	}
	// check renders too, so it downloads as render does.
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"check", template}, strings.NewReader(""), &stdout, &stderr)
	if code != 0 || stdout.String() != "" || stderr.String() != "" {
		t.Fatalf("check = %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	entries, err := os.ReadDir(filepath.Join(cache, "charts"))
	if err != nil || len(entries) != 2 {
		t.Fatalf("cache folder: %v %v, want the chart and its entry", entries, err)
	}

	out, errOut, code := render()
	if code != 0 || out != want || errOut != "" {
		t.Fatalf("render = %d\nstdout:\n%s\nstderr:\n%s\nwant stdout:\n%s", code, out, errOut, want)
	}

	// A version the repository does not have.
	if err := os.WriteFile(template, []byte(strings.Replace(text, "1.2.3", "1.2.4", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = render()
	wantErr := template + ":1:9: $chart: cannot fetch the chart hello 1.2.4 from " + srv.URL() +
		": the repository has no such version of the chart (1 version, the newest 1.2.3)\n"
	if code != 1 || out != "" || errOut != wantErr {
		t.Errorf("render of a missing version = %d\nstdout:\n%s\nstderr:\n%s\nwant stderr:\n%s", code, out, errOut, wantErr)
	}

	// Credentials in the repository's URL are never printed (reference §6).
	withCreds := strings.Replace(srv.URL(), "http://", "http://alice:s3cret@", 1) + "/?token=t0ken"
	if err := os.WriteFile(template, []byte(strings.Replace(strings.Replace(text, "1.2.3", "1.2.4", 1), srv.URL(), withCreds, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = render()
	wantErr = template + ":1:9: $chart: cannot fetch the chart hello 1.2.4 from " + srv.URL() +
		"/: the repository has no such version of the chart (1 version, the newest 1.2.3)\n"
	if code != 1 || out != "" || errOut != wantErr {
		t.Errorf("render with credentials = %d\nstdout:\n%s\nstderr:\n%s\nwant stderr:\n%s", code, out, errOut, wantErr)
	}

	if err := os.WriteFile(template, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	out, errOut, code = render()
	if code != 0 || out != want || errOut != "" {
		t.Fatalf("render from the cache = %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}
