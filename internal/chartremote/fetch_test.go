package chartremote

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"helm.sh/helm/v4/pkg/chart/common"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	"helm.sh/helm/v4/pkg/repo/v1/repotest"
)

// packageChart packages a small chart with Helm's SDK into dir and
// returns the .tgz's path; extra is a file of that many random bytes, to
// make the archive large.
func packageChart(t *testing.T, dir, name, version string, extra int) string {
	t.Helper()
	ch := &chart.Chart{
		Metadata: &chart.Metadata{APIVersion: chart.APIVersionV2, Name: name, Version: version, Type: "application"},
		Values:   map[string]any{"greeting": "hello"},
		Templates: []*common.File{{
			Name: "templates/configmap.yaml",
			Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  greeting: {{ .Values.greeting }}\n"),
		}},
	}
	if extra > 0 {
		b := make([]byte, extra)
		_, _ = rand.Read(b)
		ch.Files = append(ch.Files, &common.File{Name: "blob.bin", Data: b})
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := chartutil.Save(ch, dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// repoServer is Helm's test chart repository on 127.0.0.1 serving the
// given charts, counting the requests it answers.
type repoServer struct {
	*repotest.Server
	requests atomic.Int64
}

func newRepoServer(t *testing.T, charts ...string) *repoServer {
	t.Helper()
	rs := &repoServer{}
	rs.Server = repotest.NewTempServer(t, repotest.WithMiddleware(func(http.ResponseWriter, *http.Request) {
		rs.requests.Add(1)
	}))
	t.Cleanup(rs.Stop)
	for _, c := range charts {
		if _, err := rs.CopyCharts(c); err != nil {
			t.Fatal(err)
		}
	}
	return rs
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cacheFiles lists the cache folder's file names.
func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestFetch_httpRepositoryDownloadsOnceThenReadsTheCacheWithoutNetwork(t *testing.T) {
	tgz := packageChart(t, t.TempDir(), "podinfo", "6.7.0", 0)
	srv := newRepoServer(t, tgz)
	cache := t.TempDir()
	r := Remote{Repository: srv.URL(), Name: "podinfo", Version: "6.7.0"}

	path, err := Fetch(t.Context(), r, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(path) != cache || !strings.HasPrefix(filepath.Base(path), "podinfo-6.7.0-") || !strings.HasSuffix(path, ".tgz") {
		t.Errorf("path = %s, want podinfo-6.7.0-<key>.tgz in %s", path, cache)
	}
	if !bytes.Equal(mustRead(t, path), mustRead(t, tgz)) {
		t.Error("the cached chart is not the repository's .tgz")
	}
	if got := srv.requests.Load(); got != 2 {
		t.Errorf("requests = %d, want 2 (index.yaml, the chart)", got)
	}

	srv.Stop()
	again, err := Fetch(t.Context(), r, Options{CacheDir: cache})
	if err != nil {
		t.Fatalf("fetch with the server stopped: %v", err)
	}
	if again != path {
		t.Errorf("second fetch = %s, want %s", again, path)
	}
	if got := srv.requests.Load(); got != 2 {
		t.Errorf("requests after the cached fetch = %d, want 2", got)
	}
	if got := len(cacheFiles(t, cache)); got != 2 {
		t.Errorf("cache holds %v, want the chart and its entry", cacheFiles(t, cache))
	}
}

func TestFetch_offlineReadsOnlyTheCache(t *testing.T) {
	tgz := packageChart(t, t.TempDir(), "podinfo", "6.7.0", 0)
	srv := newRepoServer(t, tgz)
	cache := t.TempDir()
	r := Remote{Repository: srv.URL(), Name: "podinfo", Version: "6.7.0"}
	_, err := Fetch(t.Context(), r, Options{CacheDir: cache, Offline: true})
	if !errors.Is(err, ErrNotCached) || err.Error() != "chart podinfo version 6.7.0 from "+srv.URL()+": "+ErrNotCached.Error() {
		t.Errorf("offline fetch of an uncached chart: %v", err)
	}
	if got := srv.requests.Load(); got != 0 {
		t.Errorf("requests = %d, want none", got)
	}
	path, err := Fetch(t.Context(), r, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if again, err := Fetch(t.Context(), r, Options{CacheDir: cache, Offline: true}); err != nil || again != path {
		t.Errorf("offline fetch of a cached chart = %s, %v; want %s", again, err, path)
	}
	if got := srv.requests.Load(); got != 2 {
		t.Errorf("requests = %d, want 2: the one download", got)
	}
}

func TestFetch_httpRepositoryChecksThePinnedDigest(t *testing.T) {
	tgz := packageChart(t, t.TempDir(), "podinfo", "6.7.0", 0)
	srv := newRepoServer(t, tgz)
	want := sum(mustRead(t, tgz))

	for _, d := range []string{want, "sha256:" + want, "SHA256:" + strings.ToUpper(want)} {
		if _, err := Fetch(t.Context(), Remote{Repository: srv.URL(), Name: "podinfo", Version: "6.7.0", Digest: d}, Options{CacheDir: t.TempDir()}); err != nil {
			t.Errorf("digest %s: %v", d, err)
		}
	}

	wrong := strings.Repeat("ab", 32)
	_, err := Fetch(t.Context(), Remote{Repository: srv.URL(), Name: "podinfo", Version: "6.7.0", Digest: wrong}, Options{CacheDir: t.TempDir()})
	wantErr := fmt.Sprintf("chart podinfo version 6.7.0 from %s: digest mismatch: the repository serves sha256:%s, the chart is pinned to sha256:%s", srv.URL(), want, wrong)
	if err == nil || err.Error() != wantErr {
		t.Errorf("err = %v\nwant %s", err, wantErr)
	}
}

func TestFetch_aCachedChartWithAnotherPinIsFetchedAgainAndRefused(t *testing.T) {
	tgz := packageChart(t, t.TempDir(), "podinfo", "6.7.0", 0)
	srv := newRepoServer(t, tgz)
	cache := t.TempDir()
	r := Remote{Repository: srv.URL(), Name: "podinfo", Version: "6.7.0"}
	if _, err := Fetch(t.Context(), r, Options{CacheDir: cache}); err != nil {
		t.Fatal(err)
	}
	r.Digest = strings.Repeat("0", 64)
	_, err := Fetch(t.Context(), r, Options{CacheDir: cache})
	if err == nil || !strings.Contains(err.Error(), ": digest mismatch: the repository serves sha256:") {
		t.Errorf("err = %v, want a digest mismatch", err)
	}
	if got := srv.requests.Load(); got != 4 {
		t.Errorf("requests = %d, want 4: a pin the cache does not hold asks the repository", got)
	}
}

func TestFetch_aCorruptCachedChartIsFetchedAgain(t *testing.T) {
	tgz := packageChart(t, t.TempDir(), "podinfo", "6.7.0", 0)
	srv := newRepoServer(t, tgz)
	cache := t.TempDir()
	r := Remote{Repository: srv.URL(), Name: "podinfo", Version: "6.7.0"}
	path, err := Fetch(t.Context(), r, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("not a chart"), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := Fetch(t.Context(), r, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if again != path || !bytes.Equal(mustRead(t, again), mustRead(t, tgz)) {
		t.Error("the corrupt cached chart was not replaced by the repository's")
	}
	if got := srv.requests.Load(); got != 4 {
		t.Errorf("requests = %d, want 4", got)
	}
}

func TestFetch_versionsMustBeExact(t *testing.T) {
	cache := t.TempDir()
	for v, want := range map[string]string{
		"":               `version is empty: a remote chart names an exact version, such as 1.2.3`,
		"latest":         `version "latest" floats: a remote chart names an exact version, such as 1.2.3`,
		"^1.2.0":         `version "^1.2.0" is a range: a remote chart names an exact version, such as 1.2.3`,
		"~1.2":           `version "~1.2" is a range: a remote chart names an exact version, such as 1.2.3`,
		">=1.0.0 <2":     `version ">=1.0.0 <2" is a range: a remote chart names an exact version, such as 1.2.3`,
		"1.x":            `version "1.x" is a range: a remote chart names an exact version, such as 1.2.3`,
		"*":              `version "*" is a range: a remote chart names an exact version, such as 1.2.3`,
		"1.2":            `version "1.2" is not a SemVer version such as 1.2.3`,
		"1.2.3.4":        `version "1.2.3.4" is not a SemVer version such as 1.2.3`,
		"1.2.3 || 2.0.0": `version "1.2.3 || 2.0.0" is a range: a remote chart names an exact version, such as 1.2.3`,
	} {
		// A closed port: validation must fail before any network.
		_, err := Fetch(t.Context(), Remote{Repository: "https://127.0.0.1:1/charts", Name: "app", Version: v}, Options{CacheDir: cache})
		full := fmt.Sprintf("chart app version %s from \"https://127.0.0.1:1/charts\": %s", printable(v), want)
		if err == nil || err.Error() != full {
			t.Errorf("version %q: err = %v\nwant %s", v, err, full)
		}
	}
	for _, v := range []string{"1.2.3", "v1.16.1", "1.0.0-rc.1", "1.0.0+build.5"} {
		if err := CheckVersion(v); err != nil {
			t.Errorf("CheckVersion(%q) = %v, want nil", v, err)
		}
	}
}

func TestFetch_findsAVersionWrittenWithOrWithoutV(t *testing.T) {
	tgz := packageChart(t, t.TempDir(), "cert-manager", "v1.16.1", 0)
	srv := newRepoServer(t, tgz)
	for _, v := range []string{"v1.16.1", "1.16.1"} {
		path, err := Fetch(t.Context(), Remote{Repository: srv.URL(), Name: "cert-manager", Version: v}, Options{CacheDir: t.TempDir()})
		if err != nil {
			t.Errorf("version %s: %v", v, err)
			continue
		}
		if !bytes.Equal(mustRead(t, path), mustRead(t, tgz)) {
			t.Errorf("version %s: another chart", v)
		}
	}
}

func TestFetch_aMissingChartOrVersionNamesWhatTheRepositoryHas(t *testing.T) {
	dir := t.TempDir()
	srv := newRepoServer(t,
		packageChart(t, dir, "podinfo", "6.6.0", 0),
		packageChart(t, dir, "podinfo", "6.7.0", 0),
		packageChart(t, dir, "podinfo", "7.0.0-rc.1", 0))
	for _, c := range []struct{ name, version, want string }{
		{"podinfo", "6.8.0", "the repository has no such version of the chart (3 versions, the newest 6.7.0)"},
		{"nginx", "1.0.0", "the repository has no chart of this name"},
	} {
		_, err := Fetch(t.Context(), Remote{Repository: srv.URL() + "/", Name: c.name, Version: c.version}, Options{CacheDir: t.TempDir()})
		want := fmt.Sprintf("chart %s version %s from %s/: %s", c.name, c.version, srv.URL(), c.want)
		if err == nil || err.Error() != want {
			t.Errorf("err = %v\nwant %s", err, want)
		}
	}
}

func TestFetch_errorsNeverPrintCredentials(t *testing.T) {
	srv := newRepoServer(t)
	u := strings.Replace(srv.URL(), "http://", "http://alice:s3cr3t-pw@", 1) + "/sub?token=t0ken-value"
	_, err := Fetch(t.Context(), Remote{Repository: u, Name: "podinfo", Version: "6.7.0"}, Options{CacheDir: t.TempDir()})
	if err == nil {
		t.Fatal("fetch from an empty folder succeeded")
	}
	want := fmt.Sprintf("chart podinfo version 6.7.0 from %s/sub: downloading the repository's index.yaml: GET %s/sub/index.yaml: 404 Not Found", srv.URL(), srv.URL())
	if err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	for _, secret := range []string{"alice", "s3cr3t-pw", "t0ken-value"} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("the error prints %q", secret)
		}
	}
	// Invalid input too.
	_, err = Fetch(t.Context(), Remote{Repository: "ftp://bob:hunter2@example.com/x?k=v", Name: "x", Version: "1.0.0"}, Options{CacheDir: t.TempDir()})
	want = `chart x version 1.0.0 from "ftp://example.com/x": repository scheme "ftp" is not supported: use https, http or oci`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

func TestFetch_credentialsInTheURLAreSentAsBasicAuth(t *testing.T) {
	tgz := packageChart(t, t.TempDir(), "podinfo", "6.7.0", 0)
	var seen sync.Map
	srv := repotest.NewTempServer(t, repotest.WithMiddleware(func(_ http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		seen.Store(r.URL.Path, ok && u == "alice" && p == "pw")
	}))
	t.Cleanup(srv.Stop)
	if _, err := srv.CopyCharts(tgz); err != nil {
		t.Fatal(err)
	}
	u := strings.Replace(srv.URL(), "http://", "http://alice:pw@", 1)
	if _, err := Fetch(t.Context(), Remote{Repository: u, Name: "podinfo", Version: "6.7.0"}, Options{CacheDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/index.yaml", "/podinfo-6.7.0.tgz"} {
		if v, _ := seen.Load(p); v != true {
			t.Errorf("%s: basic auth not sent", p)
		}
	}
}

func TestFetch_refusesADownloadLargerThanMaxBytes(t *testing.T) {
	tgz := packageChart(t, t.TempDir(), "big", "1.0.0", 64<<10)
	srv := newRepoServer(t, tgz)
	_, err := Fetch(t.Context(), Remote{Repository: srv.URL(), Name: "big", Version: "1.0.0"}, Options{CacheDir: t.TempDir(), MaxBytes: 16 << 10})
	want := fmt.Sprintf("chart big version 1.0.0 from %s: the chart is larger than 16384 bytes, the limit of a chart download", srv.URL())
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// hostile is a server on 127.0.0.1 whose index sends the chart's URL to
// handler.
func hostile(t *testing.T, handler http.HandlerFunc) string {
	t.Helper()
	mux := http.NewServeMux()
	var srv *httptest.Server
	mux.HandleFunc("/index.yaml", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "apiVersion: v1\nentries:\n  app:\n  - apiVersion: v2\n    name: app\n    version: 1.0.0\n    urls: [%s/chart.tgz]\n", srv.URL)
	})
	mux.HandleFunc("/chart.tgz", handler)
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestFetch_stopsReadingAnEndlessDownloadAtTheLimit(t *testing.T) {
	u := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte{0}, 32<<10)
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	_, err := Fetch(t.Context(), Remote{Repository: u, Name: "app", Version: "1.0.0"}, Options{CacheDir: t.TempDir(), MaxBytes: 1 << 20})
	want := fmt.Sprintf("chart app version 1.0.0 from %s: the chart is larger than 1 MiB, the limit of a chart download", u)
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

func TestFetch_aServerThatNeverAnswersTimesOut(t *testing.T) {
	release := make(chan struct{})
	u := hostile(t, func(http.ResponseWriter, *http.Request) { <-release })
	t.Cleanup(func() { close(release) })
	_, err := Fetch(t.Context(), Remote{Repository: u, Name: "app", Version: "1.0.0"}, Options{CacheDir: t.TempDir(), Timeout: 200 * time.Millisecond})
	want := fmt.Sprintf("chart app version 1.0.0 from %s: downloading the chart: timed out after 200ms", u)
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

func TestFetch_stopsWhenTheCallerCancels(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	u := hostile(t, func(http.ResponseWriter, *http.Request) { started <- struct{}{}; <-release })
	t.Cleanup(func() { close(release) })
	ctx, cancel := context.WithCancel(t.Context())
	go func() { <-started; cancel() }()
	_, err := Fetch(ctx, Remote{Repository: u, Name: "app", Version: "1.0.0"}, Options{CacheDir: t.TempDir()})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestFetch_concurrentFetchesLeaveOneIntactFile(t *testing.T) {
	tgz := packageChart(t, t.TempDir(), "podinfo", "6.7.0", 256<<10)
	srv := newRepoServer(t, tgz)
	cache := t.TempDir()
	r := Remote{Repository: srv.URL(), Name: "podinfo", Version: "6.7.0"}
	const n = 8
	paths := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { paths[i], errs[i] = Fetch(t.Context(), r, Options{CacheDir: cache}) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if paths[i] != paths[0] {
			t.Errorf("fetch %d = %s, want %s", i, paths[i], paths[0])
		}
	}
	if !bytes.Equal(mustRead(t, paths[0]), mustRead(t, tgz)) {
		t.Error("the cached chart is not the repository's")
	}
	if got := cacheFiles(t, cache); len(got) != 2 {
		t.Errorf("cache holds %v, want the chart and its entry (no temporary files)", got)
	}
}

// TestFetch_twoProcessesRace runs this test binary twice at once, each
// fetching the same chart into the same folder.
func TestFetch_twoProcessesRace(t *testing.T) {
	tgz := packageChart(t, t.TempDir(), "podinfo", "6.7.0", 512<<10)
	srv := newRepoServer(t, tgz)
	cache := t.TempDir()
	cmds := make([]*exec.Cmd, 2)
	outs := make([]bytes.Buffer, 2)
	for i := range cmds {
		cmds[i] = exec.CommandContext(t.Context(), os.Args[0])
		cmds[i].Env = append(os.Environ(), "CHARTREMOTE_CHILD="+srv.URL(), "CHARTREMOTE_CACHE="+cache)
		cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("process %d: %v\n%s", i, err, outs[i].String())
		}
		if !strings.Contains(outs[i].String(), "fetched podinfo-6.7.0-") {
			t.Errorf("process %d did not fetch:\n%s", i, outs[i].String())
		}
	}
	files := cacheFiles(t, cache)
	if len(files) != 2 {
		t.Errorf("cache holds %v, want the chart and its entry", files)
	}
	for _, f := range files {
		if strings.HasSuffix(f, ".tgz") && !bytes.Equal(mustRead(t, filepath.Join(cache, f)), mustRead(t, tgz)) {
			t.Error("the cached chart is not the repository's")
		}
	}
}

// TestMain is also one process of TestFetch_twoProcessesRace when
// CHARTREMOTE_CHILD names the repository.
func TestMain(m *testing.M) {
	if u := os.Getenv("CHARTREMOTE_CHILD"); u != "" {
		p, err := Fetch(context.Background(), Remote{Repository: u, Name: "podinfo", Version: "6.7.0"}, Options{CacheDir: os.Getenv("CHARTREMOTE_CACHE")})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("fetched", filepath.Base(p))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestDefaultCacheDir_followsCelyamlCache(t *testing.T) {
	t.Setenv(CacheEnv, "/x/cache")
	if got := DefaultCacheDir(); got != filepath.Join("/x/cache", "charts") {
		t.Errorf("DefaultCacheDir() = %s", got)
	}
	t.Setenv(CacheEnv, "")
	t.Setenv("XDG_CACHE_HOME", "/y")
	t.Setenv("HOME", "/home/u")
	if d, err := os.UserCacheDir(); err == nil {
		if got := DefaultCacheDir(); got != filepath.Join(d, "celyaml", "charts") {
			t.Errorf("DefaultCacheDir() = %s, want %s", got, filepath.Join(d, "celyaml", "charts"))
		}
	}
}

func TestFetch_aRelativeCacheFolderGivesAnAbsolutePath(t *testing.T) {
	tgz := packageChart(t, t.TempDir(), "podinfo", "6.7.0", 0)
	srv := newRepoServer(t, tgz)
	wd := t.TempDir()
	t.Chdir(wd)
	path, err := Fetch(t.Context(), Remote{Repository: srv.URL(), Name: "podinfo", Version: "6.7.0"}, Options{CacheDir: "cache"})
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(path) || filepath.Dir(path) != filepath.Join(wd, "cache") {
		t.Errorf("path = %s, want one in %s", path, filepath.Join(wd, "cache"))
	}
}

// serveIndex is a repository on 127.0.0.1 whose index.yaml is index
// (with {{URL}} the server's URL) and whose chart.tgz is body.
func serveIndex(t *testing.T, index string, body []byte) string {
	t.Helper()
	var srv *httptest.Server
	mux := http.NewServeMux()
	mux.HandleFunc("/index.yaml", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, strings.ReplaceAll(index, "{{URL}}", srv.URL))
	})
	mux.HandleFunc("/chart.tgz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(body) })
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestFetch_refusesWhatAHostileIndexSays(t *testing.T) {
	body := []byte("chart bytes")
	entry := "apiVersion: v1\nentries:\n  app:\n  - name: app\n    version: 1.0.0\n    urls: [%s]\n    digest: %s\n"
	for _, c := range []struct{ name, index, want string }{
		{"not yaml", "{{{", "the repository's index.yaml is not a chart repository index"},
		{"no apiVersion", "entries: {}\n", "the repository's index.yaml is not a chart repository index"},
		{"a file URL", fmt.Sprintf(entry, "file:///etc/passwd", ""), "the repository's index gives this version a URL that is not http(s)"},
		{"no URL", "apiVersion: v1\nentries:\n  app:\n  - {name: app, version: 1.0.0}\n", "the repository's index gives no URL for this version"},
		{"a malformed digest", fmt.Sprintf(entry, "{{URL}}/chart.tgz", "md5:00"), "the repository's index gives a malformed digest for this version"},
		{"another digest", fmt.Sprintf(entry, "{{URL}}/chart.tgz", strings.Repeat("ab", 32)),
			"the download's digest sha256:" + sum(body) + " is not the index's sha256:" + strings.Repeat("ab", 32)},
		{"an alias bomb", "apiVersion: v1\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\ni: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]\n",
			"the repository's index.yaml is not a chart repository index"},
	} {
		u := serveIndex(t, c.index, body)
		cache := t.TempDir()
		_, err := Fetch(t.Context(), Remote{Repository: u, Name: "app", Version: "1.0.0"}, Options{CacheDir: cache})
		want := "chart app version 1.0.0 from " + u + ": " + c.want
		if err == nil || err.Error() != want {
			t.Errorf("%s: err = %v\nwant %s", c.name, err, want)
		}
		if files := cacheFiles(t, cache); len(files) != 0 {
			t.Errorf("%s: the cache holds %v", c.name, files)
		}
	}
}
