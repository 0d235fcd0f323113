package chartremote

import (
	"net/url"
	"strings"
)

// An HTTP chart repository is a folder with an index.yaml (Helm's
// repo/v1 IndexFile) that lists each chart's versions with their URLs and
// digests. Helm's repo/v1 and getter packages read it, but importing them
// links Helm's plugin system (the wazero WebAssembly runtime, extism)
// and k8s.io/cli-runtime into the binary: measured on the provider with
// Helm's chart loader, engine and registry already linked, 82.0 MB
// without them and 109.1 MB with them. So this package reads the few
// fields it needs itself, with Helm's rules: the index's apiVersion must
// be set, a chart URL is resolved against the repository's URL as Helm's
// ResolveReferenceURL does (the repository's query kept), and
// credentials go only to the repository's scheme and host.

// userAgent is sent with every request.
const userAgent = "celyaml"

// index is the part of a repository's index.yaml that Fetch reads.
type index struct {
	APIVersion string                   `json:"apiVersion"`
	Entries    map[string][]*indexEntry `json:"entries"`
}

type indexEntry struct {
	Name    string   `json:"name"`
	Version string   `json:"version"`
	URLs    []string `json:"urls"`
	Digest  string   `json:"digest"`
}

// resolveReference is ref resolved against the repository's URL, as a
// folder: an absolute ref as it is, a relative one under base's path,
// with base's query (Helm's repo/v1 ResolveReferenceURL); nil when ref is
// not a URL.
func resolveReference(base *url.URL, ref string) *url.URL {
	r, err := url.Parse(ref)
	if err != nil {
		return nil
	}
	if r.IsAbs() {
		return r
	}
	b := *base
	b.RawPath = strings.TrimSuffix(b.RawPath, "/")
	if b.RawPath != "" {
		b.RawPath += "/"
	}
	b.Path = strings.TrimSuffix(b.Path, "/") + "/"
	out := b.ResolveReference(r)
	out.RawQuery = base.RawQuery
	return out
}
