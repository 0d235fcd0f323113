package chartremote

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/Masterminds/semver/v3"
)

// Remote names one version of a chart in a chart repository or an OCI
// registry, as a remote `$chart` does (reference §11).
type Remote struct {
	// Repository is an HTTP chart repository (https://… or http://…, the
	// folder that holds index.yaml; user information in the URL is sent as
	// basic authentication to that host and never printed) or an OCI
	// registry path (oci://host/path, without the chart's name).
	Repository string
	// Name is the chart's name: in the repository's index, or the last
	// part of the OCI reference.
	Name string
	// Version is an exact version (SemVer 2, an optional leading "v" as
	// the index writes it); ranges, wildcards and "latest" are refused.
	Version string
	// Digest, when given, pins the content: "sha256:" and 64 hex digits
	// (or the 64 digits alone, as a Helm index writes them). For an HTTP
	// repository it is the SHA-256 of the .tgz (the index's digest field);
	// for OCI it is that or the manifest's digest (what `helm push` and
	// registries print).
	Digest string
}

// Limits of what Validate accepts, far above any real chart's.
const (
	maxRepositoryLen = 2048
	maxNameLen       = 250
	maxVersionLen    = 128
)

// isChartName reports whether s is what a chart's name may be: what
// Helm's index and OCI references hold, and safe as part of a file name
// (a letter or digit, then letters, digits, '.', '_' and '-'). A loop, not
// a regexp, so that nothing is compiled when the program starts.
func isChartName(s string) bool {
	return s != "" && isAlnum(s[0]) && allBytes(s, func(c byte) bool { return isAlnum(c) || c == '.' || c == '_' || c == '-' })
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func allBytes(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

// Validate reports what is wrong with r, without any network: an
// unsupported or malformed repository, a chart name that is not one, a
// version that is not exact, a digest that is not a SHA-256.
func (r Remote) Validate() error {
	_, err := r.parse()
	return err
}

// parsed is a validated Remote.
type parsed struct {
	Remote
	url      *url.URL // Repository without user information
	user     string   // from the URL's user information (HTTP only)
	password string
	oci      bool
	digest   string // lower-case hex, "" when none
}

// shown is the repository as errors print it: no user information, no
// query (which may carry a token).
func (p *parsed) shown() string { return redactURL(p.url) }

func (r Remote) parse() (*parsed, error) {
	p := &parsed{Remote: r}
	if err := p.parseRepository(); err != nil {
		return nil, err
	}
	if err := checkName(r.Name); err != nil {
		return nil, err
	}
	if err := CheckVersion(r.Version); err != nil {
		return nil, err
	}
	d, err := normalizeDigest(r.Digest)
	if err != nil {
		return nil, err
	}
	p.digest = d
	return p, nil
}

func (p *parsed) parseRepository() error {
	raw := p.Repository
	switch {
	case raw == "":
		return errors.New("repository is empty: give an https:// chart repository or an oci:// registry")
	case len(raw) > maxRepositoryLen:
		return fmt.Errorf("repository is longer than %d bytes", maxRepositoryLen)
	case strings.ContainsFunc(raw, func(c rune) bool { return c < 0x20 || c == 0x7f }):
		return errors.New("repository holds a control character")
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url's errors quote the whole URL, credentials included.
		return errors.New("repository is not a URL")
	}
	switch u.Scheme {
	case "https", "http":
	case "oci":
		p.oci = true
	case "":
		return errors.New("repository has no scheme: write https://… for a chart repository or oci://… for a registry")
	default:
		return fmt.Errorf("repository scheme %q is not supported: use https, http or oci", u.Scheme)
	}
	if u.Host == "" || u.Opaque != "" {
		return errors.New("repository names no host")
	}
	if u.Fragment != "" {
		return errors.New("repository has a fragment (#…)")
	}
	if u.User != nil {
		if p.oci {
			return errors.New("an oci:// repository cannot carry credentials: log in with `helm registry login` (the registry configuration file holds them)")
		}
		p.user = u.User.Username()
		p.password, _ = u.User.Password()
		u.User = nil
	}
	if p.oci {
		if u.RawQuery != "" || u.ForceQuery {
			return errors.New("an oci:// repository has no query")
		}
		if strings.ContainsAny(u.Path, "@:") {
			return errors.New("an oci:// repository names the registry path only: give the chart's name and version in name and version, not as a tag or digest")
		}
	}
	p.url = u
	return nil
}

func checkName(name string) error {
	switch {
	case name == "":
		return errors.New("name is empty: give the chart's name")
	case len(name) > maxNameLen:
		return fmt.Errorf("name is longer than %d bytes", maxNameLen)
	case !isChartName(name) || strings.Contains(name, ".."):
		return fmt.Errorf("name %q is not a chart name: letters, digits, '-', '_' and '.'", name)
	}
	return nil
}

// CheckVersion reports whether v is an exact chart version, with an
// error that says what to write instead of a range, a wildcard or
// "latest".
func CheckVersion(v string) error {
	switch {
	case v == "":
		return errors.New("version is empty: a remote chart names an exact version, such as 1.2.3")
	case len(v) > maxVersionLen:
		return fmt.Errorf("version is longer than %d bytes", maxVersionLen)
	case strings.EqualFold(v, "latest") || strings.EqualFold(v, "stable"):
		return fmt.Errorf("version %q floats: a remote chart names an exact version, such as 1.2.3", v)
	case isRange(v):
		return fmt.Errorf("version %q is a range: a remote chart names an exact version, such as 1.2.3", v)
	}
	if _, err := semver.StrictNewVersion(strings.TrimPrefix(v, "v")); err != nil {
		return fmt.Errorf("version %q is not a SemVer version such as 1.2.3", v)
	}
	return nil
}

// isRange is Helm's test for a version constraint (repo/v1's
// isVersionRange), plus the spaces and commas that separate constraints.
func isRange(v string) bool {
	if strings.ContainsAny(v, "^~<>=!*|, ") || strings.Contains(v, " - ") {
		return true
	}
	core := strings.TrimPrefix(v, "v")
	if i := strings.IndexAny(core, "-+"); i >= 0 {
		core = core[:i]
	}
	return strings.ContainsAny(core, "xX")
}

// normalizeDigest gives a digest as lower-case hex.
func normalizeDigest(d string) (string, error) {
	if d == "" {
		return "", nil
	}
	h := d
	if alg, rest, ok := strings.Cut(d, ":"); ok {
		if !strings.EqualFold(alg, "sha256") {
			return "", errors.New("digest: only sha256 digests are supported (sha256:<64 hex digits>)")
		}
		h = rest
	}
	if len(h) != sha256.Size*2 {
		return "", errors.New("digest is not sha256:<64 hex digits>")
	}
	if _, err := hex.DecodeString(h); err != nil {
		return "", errors.New("digest is not sha256:<64 hex digits>")
	}
	return strings.ToLower(h), nil
}

// redactURL prints u without user information and query.
func redactURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	c.User = nil
	c.RawQuery = ""
	c.ForceQuery = false
	c.Fragment = ""
	c.RawFragment = ""
	return c.String()
}
