package chartremote

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"
	"helm.sh/helm/v4/pkg/registry"
	"sigs.k8s.io/yaml"
)

// Options says where and how Fetch downloads.
type Options struct {
	// CacheDir is the folder that holds the downloaded charts; "" is
	// DefaultCacheDir().
	CacheDir string
	// MaxBytes caps each download (the repository's index.yaml, the
	// chart); 0 is DefaultMaxBytes.
	MaxBytes int64
	// Timeout bounds a whole Fetch; 0 is DefaultTimeout.
	Timeout time.Duration
	// RegistryConfig is the credentials file of OCI registries (the one
	// `helm registry login` writes); "" is Helm's default
	// ($HELM_REGISTRY_CONFIG, else registry/config.json in Helm's
	// configuration folder), with Docker's as a fallback.
	RegistryConfig string
	// PlainHTTP reaches OCI registries over plain HTTP, as `helm pull
	// --plain-http` does.
	PlainHTTP bool
	// Offline reads the cache only: a chart it does not hold is an error
	// (ErrNotCached), never a download. The language server fetches so,
	// as an editor must not reach the network while one types.
	Offline bool
}

// ErrNotCached is the error of an Offline fetch of a chart that the
// cache folder does not hold.
var ErrNotCached = errors.New("the chart is not in the cache folder, and this program does not download charts: `celyaml render`, `celyaml check` or a Terraform plan downloads it")

const (
	// DefaultMaxBytes is Helm's own bound on a chart archive's
	// decompressed size (loader.MaxDecompressedChartSize): a larger
	// archive could not be loaded anyway.
	DefaultMaxBytes = 100 << 20
	// DefaultTimeout bounds one Fetch.
	DefaultTimeout = 5 * time.Minute
)

// CacheEnv names the environment variable that moves every celyaml cache
// folder; the charts are in its charts folder.
const CacheEnv = "CELYAML_CACHE"

// DefaultCacheDir is $CELYAML_CACHE/charts, else the user's cache
// folder's celyaml/charts; "" when there is neither.
func DefaultCacheDir() string {
	if d := os.Getenv(CacheEnv); d != "" {
		return filepath.Join(d, "charts")
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "celyaml", "charts")
}

// Error is every error of Fetch: it names the chart, its version and the
// repository (without credentials or query).
type Error struct {
	Repository string
	Name       string
	Version    string
	Err        error
}

func (e *Error) Error() string {
	return fmt.Sprintf("chart %s version %s from %s: %v", printable(e.Name), printable(e.Version), e.Repository, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// printable shows s as it is when it is a plain word, else quoted and
// cut short.
func printable(s string) string {
	if len(s) > 0 && len(s) <= 128 && allBytes(s, func(c byte) bool { return isAlnum(c) || c == '.' || c == '_' || c == '+' || c == '-' }) {
		return s
	}
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return strconv.Quote(s)
}

// Fetch returns the path of r's .tgz in the cache folder, downloading it
// first when the folder does not hold it (or holds it corrupt, or with
// another digest than r pins). A cached chart is read without any
// network. The file is written to a temporary file in the same folder and
// renamed into place, so processes that race each download and the last
// rename wins with the same bytes, and no reader sees half a file.
func Fetch(ctx context.Context, r Remote, o Options) (string, error) {
	p, err := r.parse()
	if err != nil {
		return "", &Error{Repository: shownRaw(r.Repository), Name: r.Name, Version: r.Version, Err: err}
	}
	f := &fetch{p: p, o: o}
	path, err := f.run(ctx)
	if err != nil {
		return "", &Error{Repository: p.shown(), Name: r.Name, Version: r.Version, Err: err}
	}
	return path, nil
}

// shownRaw is an invalid repository as an error may print it.
func shownRaw(raw string) string {
	if i := strings.Index(raw, "://"); i >= 0 {
		rest := raw[i+3:]
		if at := strings.LastIndex(rest, "@"); at >= 0 && !strings.Contains(rest[:at], "/") {
			raw = raw[:i+3] + rest[at+1:]
		}
	}
	if q := strings.IndexAny(raw, "?#"); q >= 0 {
		raw = raw[:q]
	}
	if len(raw) > 128 {
		raw = raw[:128] + "…"
	}
	return strconv.Quote(raw)
}

type fetch struct {
	p *parsed
	o Options
	m meter
	// requested: every URL asked for, replaced in error text by its
	// redacted form.
	requested []string
}

// entry is what the cache holds beside a chart's .tgz: the digests it
// was verified against when it was downloaded.
type entry struct {
	SHA256     string `json:"sha256"`
	Manifest   string `json:"manifestDigest,omitempty"`
	Repository string `json:"repository"`
	Name       string `json:"name"`
	Version    string `json:"version"`
}

func (f *fetch) run(ctx context.Context) (string, error) {
	if f.o.MaxBytes <= 0 {
		f.o.MaxBytes = DefaultMaxBytes
	}
	if f.o.Timeout <= 0 {
		f.o.Timeout = DefaultTimeout
	}
	dir := f.o.CacheDir
	if dir == "" {
		dir = DefaultCacheDir()
	}
	if dir == "" {
		return "", fmt.Errorf("no cache folder: set %s or give a home folder", CacheEnv)
	}
	// The path returned is read later, perhaps from another folder.
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	base := filepath.Join(dir, f.fileBase())
	tgz, meta := base+".tgz", base+".json"
	if f.cached(tgz, meta) {
		return tgz, nil
	}
	if f.o.Offline {
		return "", ErrNotCached
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}

	ctx, cancel := context.WithTimeoutCause(ctx, f.o.Timeout,
		fmt.Errorf("timed out after %s", f.o.Timeout))
	defer cancel()
	f.m.reset(math.MaxInt64) // an HTTP download bounds its own body
	tr := newTransport(ctx, &f.m)
	stop := context.AfterFunc(ctx, f.m.closeAll)
	defer func() {
		stop()
		tr.CloseIdleConnections()
		f.m.closeAll()
	}()

	var data []byte
	var e entry
	var err error
	if f.p.oci {
		data, e, err = f.pullOCI(ctx, tr)
	} else {
		data, e, err = f.getHTTP(ctx, tr)
	}
	if err != nil {
		return "", err
	}
	e.Repository, e.Name, e.Version = f.p.shown(), f.p.Name, f.p.Version
	if err := store(dir, tgz, meta, data, e); err != nil {
		return "", err
	}
	return tgz, nil
}

// fileBase names a chart's files in the cache: readable, and unique per
// repository (its query, which may hold a rotating token, aside), name
// and version.
func (f *fetch) fileBase() string {
	key := sha256.Sum256([]byte("celyaml-chart-1\x00" + strings.TrimSuffix(f.p.shown(), "/") + "\x00" + f.p.Name + "\x00" + f.p.Version))
	return f.p.Name + "-" + f.p.Version + "-" + hex.EncodeToString(key[:])[:16]
}

// cached reports whether the cache holds the chart intact, with the
// digest r pins if it pins one.
func (f *fetch) cached(tgz, meta string) bool {
	raw, err := os.ReadFile(meta)
	if err != nil {
		return false
	}
	var e entry
	if json.Unmarshal(raw, &e) != nil || e.SHA256 == "" {
		return false
	}
	if d := f.p.digest; d != "" && d != e.SHA256 && "sha256:"+d != e.Manifest {
		return false
	}
	st, err := os.Stat(tgz)
	if err != nil || !st.Mode().IsRegular() || st.Size() > f.maxBytes() {
		return false
	}
	data, err := os.ReadFile(tgz)
	if err != nil {
		return false
	}
	return sum(data) == e.SHA256
}

func (f *fetch) maxBytes() int64 {
	if f.o.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return f.o.MaxBytes
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// headroom is what a download may read beyond its body: headers, TLS,
// an OCI pull's manifest, config and token.
const headroom = 1 << 20

// getHTTP reads the repository's index.yaml, finds the exact version and
// downloads it. Helm's getter and repo packages are not used here: they
// import Helm's plugin system (a WebAssembly runtime) and cli-runtime,
// which made the provider's binary 27 MB larger (see httprepo.go).
func (f *fetch) getHTTP(ctx context.Context, tr *http.Transport) ([]byte, entry, error) {
	client := &http.Client{Transport: tr}
	indexURL := resolveReference(f.p.url, "index.yaml")
	raw, err := f.get(ctx, client, indexURL, "the repository's index.yaml")
	if err != nil {
		return nil, entry{}, err
	}
	var idx index
	if err := yaml.Unmarshal(raw, &idx); err != nil || idx.APIVersion == "" {
		return nil, entry{}, errors.New("the repository's index.yaml is not a chart repository index")
	}
	cv, err := f.find(&idx)
	if err != nil {
		return nil, entry{}, err
	}
	if len(cv.URLs) == 0 || cv.URLs[0] == "" {
		return nil, entry{}, errors.New("the repository's index gives no URL for this version")
	}
	chartURL := resolveReference(f.p.url, cv.URLs[0])
	if chartURL == nil || (chartURL.Scheme != "https" && chartURL.Scheme != "http") || chartURL.Host == "" {
		return nil, entry{}, errors.New("the repository's index gives this version a URL that is not http(s)")
	}
	data, err := f.get(ctx, client, chartURL, "the chart")
	if err != nil {
		return nil, entry{}, err
	}
	got := sum(data)
	if cv.Digest != "" {
		want, err := normalizeDigest(cv.Digest)
		if err != nil {
			return nil, entry{}, errors.New("the repository's index gives a malformed digest for this version")
		}
		if want != got {
			return nil, entry{}, fmt.Errorf("the download's digest sha256:%s is not the index's sha256:%s", got, want)
		}
	}
	if d := f.p.digest; d != "" && d != got {
		return nil, entry{}, fmt.Errorf("digest mismatch: the repository serves sha256:%s, the chart is pinned to sha256:%s", got, d)
	}
	return data, entry{SHA256: got}, nil
}

// find is the index's entry for the exact version: the same string, else
// the same SemVer version ("v1.2.3" and "1.2.3").
func (f *fetch) find(idx *index) (*indexEntry, error) {
	vs, ok := idx.Entries[f.p.Name]
	if !ok || len(vs) == 0 {
		return nil, errors.New("the repository has no chart of this name")
	}
	for _, cv := range vs {
		if cv != nil && cv.Version == f.p.Version {
			return cv, nil
		}
	}
	want, err := semver.NewVersion(f.p.Version)
	if err == nil {
		for _, cv := range vs {
			if cv == nil {
				continue
			}
			if v, err := semver.NewVersion(cv.Version); err == nil && v.Equal(want) && v.Metadata() == want.Metadata() {
				return cv, nil
			}
		}
	}
	n := strconv.Itoa(len(vs)) + " versions"
	if len(vs) == 1 {
		n = "1 version"
	}
	return nil, fmt.Errorf("the repository has no such version of the chart (%s%s)", n, newest(vs))
}

// newest names the newest version of an index entry, for an error.
func newest(vs []*indexEntry) string {
	var best *semver.Version
	for _, cv := range vs {
		if cv == nil {
			continue
		}
		v, err := semver.NewVersion(cv.Version)
		if err == nil && v.Prerelease() == "" && (best == nil || v.GreaterThan(best)) {
			best = v
		}
	}
	if best == nil {
		return ""
	}
	return ", the newest " + printable(best.Original())
}

// get downloads one URL within the size bound, with the repository's
// credentials when it is on the repository's scheme and host (as Helm's
// getter sends them).
func (f *fetch) get(ctx context.Context, client *http.Client, u *url.URL, what string) ([]byte, error) {
	shown := redactURL(u)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), http.NoBody)
	if err != nil {
		return nil, fmt.Errorf("downloading %s: malformed URL", what)
	}
	req.Header.Set("User-Agent", userAgent)
	if f.p.user != "" && u.Scheme == f.p.url.Scheme && u.Host == f.p.url.Host {
		req.SetBasicAuth(f.p.user, f.p.password)
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("downloading %s: %w", what, context.Cause(ctx))
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("downloading %s: GET %s: %s", what, shown, f.scrub(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("downloading %s: GET %s: %s", what, shown, resp.Status)
	}
	if resp.ContentLength > f.o.MaxBytes {
		return nil, fmt.Errorf("%s is larger than %s, the limit of a chart download", what, size(f.o.MaxBytes))
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, f.o.MaxBytes+1))
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("downloading %s: %w", what, context.Cause(ctx))
	case err != nil:
		return nil, fmt.Errorf("downloading %s: GET %s: %s", what, shown, f.scrub(err))
	case int64(len(data)) > f.o.MaxBytes:
		return nil, fmt.Errorf("%s is larger than %s, the limit of a chart download", what, size(f.o.MaxBytes))
	}
	return data, nil
}

// pullOCI pulls name:version from the registry with Helm's registry
// client and checks the digest against the manifest's and the chart
// layer's.
func (f *fetch) pullOCI(ctx context.Context, tr *http.Transport) ([]byte, entry, error) {
	opts := []registry.ClientOption{
		registry.ClientOptHTTPClient(&http.Client{Transport: tr, Timeout: f.o.Timeout}),
		registry.ClientOptWriter(io.Discard),
	}
	if f.o.RegistryConfig != "" {
		opts = append(opts, registry.ClientOptCredentialsFile(f.o.RegistryConfig))
	}
	if f.o.PlainHTTP {
		opts = append(opts, registry.ClientOptPlainHTTP())
	}
	client, err := registry.NewClient(opts...)
	if err != nil {
		return nil, entry{}, fmt.Errorf("registry client: %s", f.scrub(err))
	}
	ref := strings.TrimSuffix(f.p.url.Host+f.p.url.Path, "/") + "/" + f.p.Name + ":" + f.p.Version
	f.requested = append(f.requested, ref)
	f.m.reset(f.o.MaxBytes + headroom)
	res, err := client.Pull(ref)
	switch {
	case f.m.tooLarge() || (err == nil && int64(len(res.Chart.Data)) > f.o.MaxBytes):
		return nil, entry{}, fmt.Errorf("the chart is larger than %s, the limit of a chart download", size(f.o.MaxBytes))
	case ctx.Err() != nil:
		return nil, entry{}, fmt.Errorf("pulling the chart: %w", context.Cause(ctx))
	case err != nil:
		return nil, entry{}, fmt.Errorf("pulling the chart: %s", f.scrub(err))
	case res.Chart == nil || len(res.Chart.Data) == 0:
		return nil, entry{}, errors.New("the registry's artifact holds no chart")
	}
	data := res.Chart.Data
	got := sum(data)
	if res.Chart.Digest != "sha256:"+got {
		return nil, entry{}, fmt.Errorf("the chart layer's digest %s is not its content's sha256:%s", res.Chart.Digest, got)
	}
	if m := res.Chart.Meta; m == nil || m.Name != f.p.Name {
		return nil, entry{}, errors.New("the registry's artifact is another chart")
	}
	manifest := res.Manifest.Digest
	if d := f.p.digest; d != "" && d != got && "sha256:"+d != manifest {
		return nil, entry{}, fmt.Errorf("digest mismatch: the registry serves manifest %s with chart layer sha256:%s, the chart is pinned to sha256:%s", manifest, got, d)
	}
	return data, entry{SHA256: got, Manifest: manifest}, nil
}

// scrub is an error's text with every URL asked for shown redacted, and
// the password, if any, removed.
func (f *fetch) scrub(err error) string {
	s := err.Error()
	for _, r := range f.requested {
		if u, perr := url.Parse(r); perr == nil && (u.RawQuery != "" || u.User != nil) {
			s = strings.ReplaceAll(s, r, redactURL(u))
		}
	}
	if f.p.password != "" {
		s = strings.ReplaceAll(s, f.p.password, "***")
	}
	return s
}

func size(n int64) string {
	if n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// store writes the chart and then its entry, each to a temporary file in
// the folder renamed into place.
func store(dir, tgz, meta string, data []byte, e entry) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create the cache folder: %w", err)
	}
	raw, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := writeAtomic(tgz, data); err != nil {
		return err
	}
	return writeAtomic(meta, append(raw, '\n'))
}

func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("cannot write the cache folder: %w", err)
	}
	_, werr := io.Copy(f, bytes.NewReader(data))
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr, os.Chmod(f.Name(), 0o644)); err != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("cannot write the cache folder: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("cannot write the cache folder: %w", err)
	}
	return nil
}
