package validate

import (
	"strings"
)

// Loading from an index: a caller that keeps what Load reads of each
// schema document (the command line's cache of --schemas files, keyed by
// their content) gives it back with a way to read the document, and only
// the CustomResourceDefinitions of the kinds checked are ever read.

// CRDIndex is what Load reads of a CustomResourceDefinition without
// decoding it: its name, group, kind, scope and served versions.
type CRDIndex struct {
	Name, Group, Kind string
	Scope             string // spec.scope as written: Namespaced or Cluster
	Served            []string
}

// IndexOf says how Load reads a schema document: a CustomResourceDefinition
// it can index (ok), or any other document (read whole, or skipped).
func IndexOf(doc any) (ix CRDIndex, ok bool) {
	m, _ := doc.(map[string]any)
	if m == nil || isOpenAPIDocument(m) {
		return ix, false
	}
	av, _ := stringAt(m, "apiVersion")
	kind, _ := stringAt(m, "kind")
	if av != "apiextensions.k8s.io/v1" || kind != "CustomResourceDefinition" {
		return ix, false
	}
	info, ok := crdIndex(m)
	if !ok {
		return ix, false
	}
	scope, _ := stringAt(m, "spec", "scope")
	return CRDIndex{Name: info.name, Group: info.group, Kind: info.kind, Served: info.served, Scope: scope}, true
}

// IsOtherObject reports whether a schema document is a Kubernetes object
// that Load skips (neither a CustomResourceDefinition nor an OpenAPI
// document), the rest of a release bundle.
func IsOtherObject(doc any) bool {
	m, _ := doc.(map[string]any)
	if m == nil || isOpenAPIDocument(m) {
		return false
	}
	av, _ := stringAt(m, "apiVersion")
	kind, _ := stringAt(m, "kind")
	if av == "" || kind == "" {
		return false
	}
	if kind == "CustomResourceDefinition" && strings.HasPrefix(av, "apiextensions.k8s.io/") {
		return false
	}
	return true
}

// Indexed is one schema document for LoadIndexed: Value, a decoded
// document read as LoadPlain reads it; or a CustomResourceDefinition's
// CRD index with Read, which decodes it when first needed; or Other, a
// document IsOtherObject skips.
type Indexed struct {
	Value any
	CRD   *CRDIndex
	Read  func() (map[string]any, error)
	Other bool
}

// LoadIndexed is LoadPlain for documents some of which are given by their
// index (IndexOf) rather than decoded.
func LoadIndexed(docs []Indexed) (*Schemas, error) {
	s := newSchemas(builtins())
	for i, d := range docs {
		s.loading = i
		switch {
		case d.Other:
			s.skipped++
		case d.CRD != nil:
			ix := crdInfo{name: d.CRD.Name, group: d.CRD.Group, kind: d.CRD.Kind, served: d.CRD.Served}
			s.addCRD(ix, d.Read)
		default:
			if err := s.addDocument(i, d.Value); err != nil {
				return nil, err
			}
		}
	}
	return s.loaded()
}
