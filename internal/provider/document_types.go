package provider

import (
	"sync"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/kubetypes"
	manifestcheck "github.com/celyaml/terraform-provider-celyaml/internal/validate"
)

// Typing unknowns from where they land (the unknown-values guide, "Types
// from where the value lands"): before render and render_file return
// documents that hold unknown values, each document whose kind has a
// schema (a built-in kind, or a CustomResourceDefinition among the same
// documents) gets its unknowns typed as kubernetes_manifest reads its
// manifest at plan (package kubetypes); validate does the same with its
// schemas. Documents without unknowns, all of them at apply, cost nothing.

// builtinSchemas is the built-in kinds alone, read once per process.
var builtinSchemas = sync.OnceValues(func() (*manifestcheck.Schemas, error) {
	return manifestcheck.Load(nil)
})

// typeDocuments types the unknowns of rendered documents by their kinds'
// schemas: the built-in kinds and the CustomResourceDefinitions among
// docs themselves (those wholly known).
func typeDocuments(docs []value.Value) ([]value.Value, error) {
	if value.IsUnknownStream(docs) || !containsUnknown(docs) {
		return docs, nil
	}
	var crds []value.Value
	for _, d := range docs {
		if m, ok := d.(*value.Map); ok && isCRD(m) && !containsUnknown(m) {
			crds = append(crds, m)
		}
	}
	var schemas *manifestcheck.Schemas
	var err error
	if len(crds) > 0 {
		schemas, err = manifestcheck.Load(crds)
	}
	if len(crds) == 0 || err != nil {
		// A CRD that cannot be read is validate's to report; its kinds
		// are then typed as no schema covered them.
		if schemas, err = builtinSchemas(); err != nil {
			return docs, nil //nolint:nilerr // no built-in kinds: nothing types
		}
	}
	return typeDocumentsBy(docs, schemas)
}

// typeDocumentsBy types the unknowns of docs by the kinds of schemas.
func typeDocumentsBy(docs []value.Value, schemas *manifestcheck.Schemas) ([]value.Value, error) {
	return kubetypes.Documents(docs, schemas.Structural)
}

// isCRD reports whether a document is an apiextensions.k8s.io/v1
// CustomResourceDefinition.
func isCRD(m *value.Map) bool {
	av, _ := m.Get("apiVersion")
	kind, _ := m.Get("kind")
	return av == "apiextensions.k8s.io/v1" && kind == "CustomResourceDefinition"
}
