package chartremote

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRemote checks what Remote's validation accepts, on hostile
// repositories, names, versions and digests: it never panics; an
// accepted version is exact; an accepted remote's cache files stay in the
// cache folder; an error never prints the URL's password or query.
func FuzzRemote(f *testing.F) {
	for _, s := range [][4]string{
		{"https://charts.jetstack.io", "cert-manager", "v1.16.1", ""},
		{"oci://ghcr.io/stefanprodan/charts", "podinfo", "6.7.0", "sha256:" + strings.Repeat("a", 64)},
		{"http://user:pa55@127.0.0.1:8080/charts?token=t0k", "app", "1.0.0-rc.1+b.2", strings.Repeat("F", 64)},
		{"https://example.com", "../../etc/passwd", "1.0.0", ""},
		{"https://example.com", "app", "../../1.0.0", ""},
		{"https://example.com", "app/x", "1.0.0", ""},
		{"oci://reg.example/charts:1.0.0", "app", "1.0.0", ""},
		{"oci://u:p@reg.example/charts", "app", "1.0.0", ""},
		{"https://example.com/%zz", "app", "1.0.0", ""},
		{"https://exa mple.com", "app", ">=1.0.0", ""},
		{"https://example.com\n", "app", "1.0.0\x00", "md5:abc"},
		{"javascript:alert(1)", "app", "latest", ""},
		{"file:///etc/passwd", "app", "*", ""},
		{"https://[::1]:443/x", "app", "1.x", ""},
		{"https://example.com", strings.Repeat("a", 300), strings.Repeat("1", 200), strings.Repeat("0", 65)},
		{"", "", "", ""},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, repository, name, version, digest string) {
		r := Remote{Repository: repository, Name: name, Version: version, Digest: digest}
		p, err := r.parse()
		if err != nil {
			e := &Error{Repository: shownRaw(repository), Name: name, Version: version, Err: err}
			msg := e.Error()
			if !utf8.ValidString(repository) {
				return
			}
			if i := strings.Index(repository, "://"); i >= 0 {
				rest := repository[i+3:]
				if at := strings.LastIndex(rest, "@"); at >= 0 && !strings.ContainsAny(rest[:at], "/?#") {
					if _, pw, ok := strings.Cut(rest[:at], ":"); ok && len(pw) >= 4 && strings.Contains(msg, pw) && !strings.Contains(name+version+rest[at:], pw) {
						t.Errorf("error prints the password: %s", msg)
					}
				}
			}
			return
		}
		if isRange(version) || strings.EqualFold(version, "latest") {
			t.Errorf("accepted version %q", version)
		}
		if p.digest != "" && len(p.digest) != 64 {
			t.Errorf("digest %q normalised to %q", digest, p.digest)
		}
		f := &fetch{p: p}
		base := f.fileBase()
		if filepath.Base(base) != base || strings.ContainsAny(base, `/\`) || base == "." || base == ".." {
			t.Errorf("cache file name %q leaves the folder", base)
		}
		if p.url.User != nil {
			t.Errorf("user information kept in %s", p.url.Redacted())
		}
		if s := p.shown(); p.password != "" && strings.Contains(s, p.password) && !strings.Contains(p.url.Host+p.url.Path, p.password) {
			t.Errorf("shown repository %s prints the password", s)
		}
	})
}
