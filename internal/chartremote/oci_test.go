package chartremote

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v4/pkg/repo/v1/repotest"
)

// TestFetch_ociRegistry pulls from Helm's own test registry
// (distribution's, in memory, on 127.0.0.1, behind basic
// authentication): the chart by tag, checked against the manifest's
// digest and the chart layer's, then read from the cache with the
// registry shut down.
func TestFetch_ociRegistry(t *testing.T) {
	dir := t.TempDir()
	// NewOCIServer pushes the chart it finds under this name.
	tgz := packageChart(t, dir, "oci-dependent-chart", "0.1.0", 0)
	srv, err := repotest.NewOCIServer(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	pushed := srv.RunWithReturn(t).PushedChart
	creds := filepath.Join(dir, "config.json") // written by the server's login
	repository := "oci://" + srv.RegistryURL + "/u/ocitestuser"
	r := Remote{Repository: repository, Name: "oci-dependent-chart", Version: "0.1.0"}
	opts := func(cache string) Options {
		return Options{CacheDir: cache, RegistryConfig: creds, PlainHTTP: true}
	}

	for _, d := range []string{"", pushed.Manifest.Digest, pushed.Chart.Digest} {
		cache := t.TempDir()
		r.Digest = d
		path, err := Fetch(t.Context(), r, opts(cache))
		if err != nil {
			t.Fatalf("digest %q: %v", d, err)
		}
		if !bytes.Equal(mustRead(t, path), mustRead(t, tgz)) {
			t.Errorf("digest %q: the cached chart is not the pushed one", d)
		}
	}

	wrong := "sha256:" + strings.Repeat("0", 64)
	r.Digest = wrong
	_, err = Fetch(t.Context(), r, opts(t.TempDir()))
	want := fmt.Sprintf("chart oci-dependent-chart version 0.1.0 from %s: digest mismatch: the registry serves manifest %s with chart layer %s, the chart is pinned to %s",
		repository, pushed.Manifest.Digest, pushed.Chart.Digest, wrong)
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}

	r.Digest = ""
	r.Version = "0.2.0"
	_, err = Fetch(t.Context(), r, opts(t.TempDir()))
	if err == nil || !strings.HasPrefix(err.Error(), "chart oci-dependent-chart version 0.2.0 from "+repository+": pulling the chart: ") || !strings.Contains(err.Error(), "not found") {
		t.Errorf("err = %v, want a pull error that says not found", err)
	}

	// Without the credentials the registry refuses.
	r.Version = "0.1.0"
	_, err = Fetch(t.Context(), r, Options{CacheDir: t.TempDir(), RegistryConfig: filepath.Join(dir, "none.json"), PlainHTTP: true})
	if err == nil || !strings.HasSuffix(err.Error(), ": basic credential not found") {
		t.Errorf("err = %v, want the registry's refusal", err)
	}

	cache := t.TempDir()
	r.Digest = pushed.Manifest.Digest
	path, err := Fetch(t.Context(), r, opts(cache))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	again, err := Fetch(t.Context(), r, opts(cache))
	if err != nil || again != path {
		t.Errorf("fetch with the registry shut down = %s, %v; want %s from the cache", again, err, path)
	}
}
