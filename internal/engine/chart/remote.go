package chart

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// Remote is a chart that a $chart names in a chart repository (an
// http(s):// chart repository, or an oci:// registry) at an exact version
// (reference §11). The engine asks its FetchChart option for the local
// path of such a chart; package chartremote downloads and caches it.
type Remote struct {
	Repository string // https://charts.jetstack.io or oci://registry.example/charts
	Name       string // cert-manager
	Version    string // v1.16.1: an exact version, never a range
	Digest     string // sha256:…, optional
}

// exactVersion is a semantic version with an optional "v": no ranges,
// no wildcards.
var exactVersion = lazyRegexp(`^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

var digestForm = lazyRegexp(`^sha256:[0-9a-f]{64}$`)

// Check says what is wrong with r, field by field, or "" when nothing
// is; field is the key to point at.
func (r Remote) Check() (field, msg string) {
	switch {
	case r.Repository == "":
		return "repository", "a remote chart needs repository: an http(s):// chart repository or an oci:// registry"
	case !strings.HasPrefix(r.Repository, "https://") && !strings.HasPrefix(r.Repository, "http://") && !strings.HasPrefix(r.Repository, "oci://"):
		return "repository", "repository must start with https://, http:// or oci://"
	case r.Name == "":
		return "name", "a remote chart needs name: the chart's name in the repository"
	case strings.ContainsAny(r.Name, "/\\ ") || r.Name == "." || r.Name == "..":
		return "name", "name is a chart's name, without slashes or spaces"
	case r.Version == "":
		return "version", "a remote chart needs version: an exact version such as 1.2.3; charts are pinned"
	case !exactVersion().MatchString(r.Version):
		return "version", "version must be an exact version such as 1.2.3 or v1.2.3, not a range or a wildcard: charts are pinned"
	case r.Digest != "" && !digestForm().MatchString(r.Digest):
		return "digest", "digest must be sha256: followed by 64 lowercase hexadecimal digits"
	}
	return "", ""
}

// ShownRepository is the repository as an error prints it: without the
// user information and the query of its URL, which may hold credentials
// (reference §6).
func (r Remote) ShownRepository() string {
	u, err := url.Parse(r.Repository)
	if err != nil {
		return "(a repository that is not a URL)"
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String()
}

// lazyRegexp compiles expr on first use, not while the program starts:
// most launches render no chart.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
