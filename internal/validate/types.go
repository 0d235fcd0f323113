package validate

import (
	"strings"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Structural gives the structural schema of the documents of apiVersion
// and kind, from the given schemas or else the built-in kinds, as Check
// reads it; nil when no schema covers them. It is what package kubetypes
// types a document's unknowns by (the unknown-values guide).
func (s *Schemas) Structural(apiVersion, kind string) (*structuralschema.Structural, error) {
	group, version, found := strings.Cut(apiVersion, "/")
	if !found {
		group, version = "", apiVersion // the core group
	}
	entry, _, err := s.entry(schema.GroupKind{Group: group, Kind: kind}, version)
	if err != nil || entry == nil {
		return nil, err
	}
	ks, err := entry.get()
	if err != nil || ks == nil {
		return nil, err
	}
	return ks.structural, nil
}
