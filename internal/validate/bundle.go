package validate

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
)

// This file is the format of the built-in kinds' bundle (package builtin,
// written by its generator, read by builtins.go): the API server's own
// /openapi/v3 documents of one Kubernetes version, one per group-version,
// each normalised (BundleDocument) and every distinct component schema
// stored once. It is one gzip-compressed JSON object:
//
//	{"kubernetes": "v1.37.2",
//	 "groupVersions": [{"groupVersion": "apps/v1",
//	                    "kinds": [{"kind": "Deployment", "schema": "io.k8s.api.apps.v1.Deployment", "namespaced": true, "status": true}, ...],
//	                    "components": {"io.k8s.api.apps.v1.Deployment": 12, ...}}, ...],
//	 "schemas": [{...}, ...]}
//
// where a group-version's components map each component schema's name to
// its index in schemas. Reading it decodes only the kinds of each
// group-version; a component schema is decoded when a kind that needs it
// is first checked.

// BundleDocument is one group-version's OpenAPI document as the bundle
// keeps it: the kinds its paths serve (what the validator reads of its
// paths) and its component schemas without their descriptions.
type BundleDocument struct {
	GroupVersion string         `json:"groupVersion"` // "v1" for the core group, else "group/version"
	Kinds        []BundleKind   `json:"kinds"`
	Components   map[string]any `json:"-"`
}

// BundleKind is one kind a document serves.
type BundleKind struct {
	Kind       string `json:"kind"`
	Schema     string `json:"schema"` // its name in components.schemas
	Namespaced bool   `json:"namespaced,omitempty"`
	Status     bool   `json:"status,omitempty"` // it has a status subresource
}

// NormaliseOpenAPI turns an /openapi/v3 document of one group-version, as
// the API server serves it and DecodeJSON reads it, into what the bundle
// keeps of it. The generator and the test against a real API server use
// it alike.
func NormaliseOpenAPI(groupVersion string, doc map[string]any) (BundleDocument, error) {
	if !isOpenAPIDocument(doc) {
		return BundleDocument{}, fmt.Errorf("%s: not an OpenAPI v3 document", groupVersion)
	}
	components, _ := doc["components"].(map[string]any)
	schemas, _ := components["schemas"].(map[string]any)
	out := BundleDocument{GroupVersion: groupVersion, Components: make(map[string]any, len(schemas))}
	for _, k := range openAPIKinds(doc) {
		if k.gvk.GroupVersion().String() != groupVersion {
			return BundleDocument{}, fmt.Errorf("%s: serves %s", groupVersion, k.gvk)
		}
		out.Kinds = append(out.Kinds, BundleKind{Kind: k.gvk.Kind, Schema: k.schema, Namespaced: k.namespaced, Status: k.status})
	}
	for name, sch := range schemas {
		out.Components[name] = withoutDescriptions(sch)
	}
	return out, nil
}

// withoutDescriptions copies a schema without its descriptions (the bulk
// of a served document, and never read by a validator).
func withoutDescriptions(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, e := range m {
		if k == "description" {
			continue
		}
		out[k], _ = mapSubschemas(k, e, func(sub any) (any, error) { return withoutDescriptions(sub), nil })
	}
	return out
}

// bundleFile is the bundle's JSON, with what is decoded only when needed
// left raw.
type bundleFile struct {
	Kubernetes    string            `json:"kubernetes"`
	GroupVersions []bundleGV        `json:"groupVersions"`
	Schemas       []json.RawMessage `json:"schemas"`
}

type bundleGV struct {
	BundleDocument
	Components json.RawMessage `json:"components"` // map[string]int
}

// EncodeBundle writes the bundle of one Kubernetes version ("v1.37.2"):
// the same documents always give the same bytes.
func EncodeBundle(version string, docs []BundleDocument) ([]byte, error) {
	docs = append([]BundleDocument(nil), docs...)
	sort.Slice(docs, func(i, j int) bool { return docs[i].GroupVersion < docs[j].GroupVersion })
	f := bundleFile{Kubernetes: version}
	index := map[string]int{}
	for _, d := range docs {
		names := make([]string, 0, len(d.Components))
		for n := range d.Components {
			names = append(names, n)
		}
		sort.Strings(names)
		refs := make(map[string]int, len(names))
		for _, n := range names {
			raw, err := json.Marshal(d.Components[n])
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", d.GroupVersion, n, err)
			}
			i, seen := index[string(raw)]
			if !seen {
				i = len(f.Schemas)
				index[string(raw)] = i
				f.Schemas = append(f.Schemas, raw)
			}
			refs[n] = i
		}
		comps, err := json.Marshal(refs)
		if err != nil {
			return nil, err
		}
		f.GroupVersions = append(f.GroupVersions, bundleGV{BundleDocument: d, Components: comps})
	}
	raw, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decodeBundle reads a bundle's index: every group-version's kinds, with
// the component schemas left raw.
func decodeBundle(gz []byte) (*bundleFile, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	var f bundleFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(f.Kubernetes, "v1.") {
		return nil, fmt.Errorf("no Kubernetes version (%q)", f.Kubernetes)
	}
	return &f, nil
}

// components decodes the map of a group-version's component names to
// their indexes in the bundle's schemas.
func (g *bundleGV) components() (map[string]int, error) {
	var refs map[string]int
	if err := json.Unmarshal(g.Components, &refs); err != nil {
		return nil, fmt.Errorf("%s: components: %w", g.GroupVersion, err)
	}
	return refs, nil
}

// BundleDocuments reads every document of a bundle back as
// NormaliseOpenAPI made it, with the bundle's Kubernetes version.
func BundleDocuments(gz []byte) (string, []BundleDocument, error) {
	f, err := decodeBundle(gz)
	if err != nil {
		return "", nil, err
	}
	out := make([]BundleDocument, len(f.GroupVersions))
	for i := range f.GroupVersions {
		g := &f.GroupVersions[i]
		refs, err := g.components()
		if err != nil {
			return "", nil, err
		}
		d := g.BundleDocument
		d.Components = make(map[string]any, len(refs))
		for name, idx := range refs {
			if idx < 0 || idx >= len(f.Schemas) {
				return "", nil, fmt.Errorf("%s: %s: no schema %d", g.GroupVersion, name, idx)
			}
			if d.Components[name], err = DecodeJSON(f.Schemas[idx]); err != nil {
				return "", nil, fmt.Errorf("%s: %s: %w", g.GroupVersion, name, err)
			}
		}
		out[i] = d
	}
	return f.Kubernetes, out, nil
}

// Diff says how two normalised documents of the same group-version
// differ, or "" when they are equal: the kinds, and the component schemas
// only one has or that differ, by name.
func (d BundleDocument) Diff(other BundleDocument) string {
	var diffs []string
	if d.GroupVersion != other.GroupVersion {
		diffs = append(diffs, fmt.Sprintf("group-version %s, not %s", d.GroupVersion, other.GroupVersion))
	}
	if !reflect.DeepEqual(d.Kinds, other.Kinds) {
		diffs = append(diffs, fmt.Sprintf("kinds %+v, not %+v", d.Kinds, other.Kinds))
	}
	var names []string
	for n := range d.Components {
		names = append(names, n)
	}
	for n := range other.Components {
		if _, ok := d.Components[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		a, inA := d.Components[n]
		b, inB := other.Components[n]
		switch {
		case !inA:
			diffs = append(diffs, "only the other has "+n)
		case !inB:
			diffs = append(diffs, "only this one has "+n)
		case !sameJSON(a, b):
			diffs = append(diffs, n+" differs")
		}
	}
	return strings.Join(diffs, "; ")
}

// sameJSON compares two schemas as JSON, so that 1 read as an int64 and
// 1.0 read as a float64 are the same number.
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}
