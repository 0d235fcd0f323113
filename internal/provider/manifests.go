package provider

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/manifest"
)

// This file keys Kubernetes-style documents by manifest ID, for the
// data source's `manifests` attribute and for the manifests() function.
// The ID rule (`group/Kind/namespace/name`, which documents have none,
// which are not known yet) is the engine's, manifest.FromParts; this file
// reads its parts from Terraform values. Two documents with the same ID
// are an error. When a kind, name, namespace or apiVersion is unknown, the
// keys cannot be known, so the whole result is unknown; otherwise the keys
// are known and the values may hold unknown leaves.

// docPart reads the string at path in doc. A path through something that
// is not an object or map counts as absent; a final value that is neither
// null, unknown nor a string is an error.
func docPart(doc tftypes.Value, path ...string) (manifest.Part, error) {
	v := doc
	for _, name := range path {
		if v.IsNull() {
			return manifest.Part{State: manifest.PartAbsent}, nil
		}
		if !v.IsKnown() {
			return manifest.Part{State: manifest.PartUnknown}, nil
		}
		if !v.Type().Is(tftypes.Object{}) && !v.Type().Is(tftypes.Map{}) {
			return manifest.Part{State: manifest.PartAbsent}, nil
		}
		var attrs map[string]tftypes.Value
		if err := v.As(&attrs); err != nil {
			return manifest.Part{State: manifest.PartAbsent}, err
		}
		next, ok := attrs[name]
		if !ok {
			return manifest.Part{State: manifest.PartAbsent}, nil
		}
		v = next
	}
	if v.IsNull() {
		return manifest.Part{State: manifest.PartAbsent}, nil
	}
	if !v.IsKnown() {
		return manifest.Part{State: manifest.PartUnknown}, nil
	}
	if !v.Type().Is(tftypes.String) {
		return manifest.Part{State: manifest.PartAbsent}, fmt.Errorf("%s must be a string, got %s", strings.Join(path, "."), typeName(v))
	}
	var s string
	err := v.As(&s)
	return manifest.Part{Text: s, State: manifest.PartKnown}, err
}

// manifestID computes the ID of one document by the engine's rule. skip
// is true for a document that has no kind or no metadata.name; unknown is
// true when a part of the ID is not known yet.
func manifestID(d tftypes.Value) (id string, skip, unknown bool, err error) {
	if d.IsNull() {
		return "", true, false, nil
	}
	if !d.IsKnown() {
		return "", false, true, nil
	}
	return manifest.FromParts(func(path ...string) (manifest.Part, error) { return docPart(d, path...) })
}

// duplicateManifestError reports two documents with the same manifest ID.
// It names the documents' indexes and, when the documents were rendered
// here, where the template produced each, and the ID whole (reference §6);
// a data source with sensitive = true shows only the parts that the
// template writes, the others written "…".
type duplicateManifestError struct {
	First, Second int    // indexes in the document list, from 0
	ID            string // the manifest ID both have
	// Origins are the template positions that produced the two documents,
	// or empty when the documents were not rendered here.
	Origins [2]string
	// Hide says the render hides names (sensitive = true); Written then
	// reports whether the template writes a string itself (nil: every
	// part of the ID but "_" is hidden).
	Hide    bool
	Written func(string) bool
}

// shownID is the ID as the message may show it.
func (e *duplicateManifestError) shownID() string {
	return manifest.ForError(e.ID, e.Hide, func() func(string) bool { return e.Written })
}

// templateScalars reports the strings a template's text writes, as
// manifest.Written does.
func templateScalars(text []byte) func(string) bool { return manifest.Written(string(text)) }

func (e *duplicateManifestError) Error() string {
	doc := func(i int, origin string) string {
		if origin == "" {
			return fmt.Sprint(i)
		}
		return fmt.Sprintf("%d (from %s)", i, origin)
	}
	return fmt.Sprintf("documents %s and %s have the same manifest ID %q (apiVersion group, kind, metadata.namespace and metadata.name); every manifest must be unique (documents are counted from 0)",
		doc(e.First, e.Origins[0]), doc(e.Second, e.Origins[1]), e.shownID())
}

// buildManifests keys the documents by manifest ID. It returns an object,
// or an unknown value when some ID cannot be known yet. Errors name
// document indexes, never values.
func buildManifests(docs []tftypes.Value) (tftypes.Value, error) {
	first := make(map[string]int, len(docs))
	typs := make(map[string]tftypes.Type, len(docs))
	vals := make(map[string]tftypes.Value, len(docs))
	unknown := false
	for i, doc := range docs {
		id, skip, unk, err := manifestID(doc)
		if err != nil {
			return tftypes.Value{}, fmt.Errorf("document %d: %w", i, err)
		}
		if skip {
			continue
		}
		if unk {
			unknown = true
			continue
		}
		if j, dup := first[id]; dup {
			return tftypes.Value{}, &duplicateManifestError{First: j, Second: i, ID: id}
		}
		first[id] = i
		typs[id], vals[id] = doc.Type(), doc
	}
	if unknown {
		return dynamicUnknown, nil
	}
	return tftypes.NewValue(tftypes.Object{AttributeTypes: typs}, vals), nil
}

// documentsOf reads the argument of manifests(): a tuple, list or set of
// documents, or one document (an object or map). Null means no documents;
// unknown is true when the argument, or its list of documents, is unknown.
func documentsOf(d tftypes.Value) (docs []tftypes.Value, unknown bool, err error) {
	if d.IsNull() {
		return nil, false, nil
	}
	if !d.IsKnown() {
		return nil, true, nil
	}
	typ := d.Type()
	switch {
	case typ.Is(tftypes.Tuple{}), typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}):
		err = d.As(&docs)
		return docs, false, err
	case typ.Is(tftypes.Object{}), typ.Is(tftypes.Map{}):
		return []tftypes.Value{d}, false, nil
	}
	return nil, false, fmt.Errorf("documents must be a document (an object) or a tuple of documents, got %s", typeName(d))
}
