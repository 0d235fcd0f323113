package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// This file keys Kubernetes-style documents by manifest ID, for the
// data source's `manifests` attribute and for the manifests() function.
//
// An ID is `group/Kind/namespace/name`:
//   - group is the part of apiVersion before "/", or "_" for the core group
//     (`v1`, any apiVersion without "/") and for a missing apiVersion;
//   - namespace is metadata.namespace, or "_" when absent.
//
// Documents without kind or metadata.name are left out. Two documents with
// the same ID are an error. When a kind, name, namespace or apiVersion is
// unknown, the keys cannot be known, so the whole result is unknown;
// otherwise the keys are known and the values may hold unknown leaves.

// coreGroup stands for the core API group and for absent parts.
const coreGroup = "_"

// partState says what a document holds at a path.
type partState int

const (
	partAbsent  partState = iota // missing or null
	partUnknown                  // not known yet
	partKnown                    // a known string
)

// docPart reads the string at path in doc. A path through something that
// is not an object or map counts as absent; a final value that is neither
// null, unknown nor a string is an error.
func docPart(doc attr.Value, path ...string) (string, partState, error) {
	v := doc
	for _, name := range path {
		v = unwrapDynamic(v)
		if v == nil || v.IsNull() {
			return "", partAbsent, nil
		}
		if v.IsUnknown() {
			return "", partUnknown, nil
		}
		var (
			next attr.Value
			ok   bool
		)
		switch tv := v.(type) {
		case basetypes.ObjectValue:
			next, ok = tv.Attributes()[name]
		case basetypes.MapValue:
			next, ok = tv.Elements()[name]
		default:
			return "", partAbsent, nil
		}
		if !ok {
			return "", partAbsent, nil
		}
		v = next
	}
	v = unwrapDynamic(v)
	if v == nil || v.IsNull() {
		return "", partAbsent, nil
	}
	if v.IsUnknown() {
		return "", partUnknown, nil
	}
	s, ok := v.(basetypes.StringValue)
	if !ok {
		return "", partAbsent, fmt.Errorf("%s must be a string, got %s", strings.Join(path, "."), typeName(v))
	}
	return s.ValueString(), partKnown, nil
}

// unwrapDynamic returns the value a dynamic value holds (nil for an untyped
// null), or v itself.
func unwrapDynamic(v attr.Value) attr.Value {
	if d, ok := v.(basetypes.DynamicValue); ok {
		if d.IsUnknown() {
			return d
		}
		if d.IsNull() {
			return nil
		}
		return d.UnderlyingValue()
	}
	return v
}

// typeName names the kind of a Terraform value for error messages.
func typeName(v attr.Value) string {
	switch v.(type) {
	case basetypes.StringValue:
		return "a string"
	case basetypes.NumberValue, basetypes.Int64Value, basetypes.Int32Value, basetypes.Float64Value, basetypes.Float32Value:
		return "a number"
	case basetypes.BoolValue:
		return "a bool"
	case basetypes.ObjectValue, basetypes.MapValue:
		return "an object"
	case basetypes.TupleValue, basetypes.ListValue, basetypes.SetValue:
		return "a list"
	}
	return "a value of type " + v.Type(context.Background()).String()
}

// manifestGroup returns the API group of an apiVersion.
func manifestGroup(apiVersion string) string {
	if i := strings.IndexByte(apiVersion, '/'); i > 0 {
		return apiVersion[:i]
	}
	return coreGroup
}

// manifestID computes the ID of one document. skip is true for a document
// that has no kind or no metadata.name; unknown is true when a part of the
// ID is not known yet.
func manifestID(doc attr.Value) (id string, skip, unknown bool, err error) {
	d := unwrapDynamic(doc)
	if d == nil || d.IsNull() {
		return "", true, false, nil
	}
	if d.IsUnknown() {
		return "", false, true, nil
	}
	kind, ks, err := docPart(d, "kind")
	if err != nil {
		return "", false, false, err
	}
	name, ns, err := docPart(d, "metadata", "name")
	if err != nil {
		return "", false, false, err
	}
	if ks == partAbsent || ns == partAbsent {
		return "", true, false, nil
	}
	namespace, nss, err := docPart(d, "metadata", "namespace")
	if err != nil {
		return "", false, false, err
	}
	apiVersion, as, err := docPart(d, "apiVersion")
	if err != nil {
		return "", false, false, err
	}
	if ks == partUnknown || ns == partUnknown || nss == partUnknown || as == partUnknown {
		return "", false, true, nil
	}
	group := coreGroup
	if as == partKnown {
		group = manifestGroup(apiVersion)
	}
	if nss == partAbsent {
		namespace = coreGroup
	}
	return group + "/" + kind + "/" + namespace + "/" + name, false, false, nil
}

// duplicateManifestError reports two documents with the same manifest ID.
// It names the documents by index only: the ID may be built from variable
// values, which error text never shows.
type duplicateManifestError struct {
	First, Second int // indexes in the document list, from 0
}

func (e *duplicateManifestError) Error() string {
	return fmt.Sprintf("documents %d and %d have the same manifest ID (apiVersion group, kind, metadata.namespace and metadata.name); every manifest must be unique (documents are counted from 0)", e.First, e.Second)
}

// buildManifests keys the documents by manifest ID. It returns an object,
// or types.DynamicUnknown() when some ID cannot be known yet. Errors name
// document indexes, never values.
func buildManifests(ctx context.Context, docs []attr.Value) (attr.Value, error) {
	ids, unknown, err := manifestIndex(docs)
	if err != nil {
		return nil, err
	}
	if unknown {
		return types.DynamicUnknown(), nil
	}
	typs := make(map[string]attr.Type, len(ids))
	vals := make(map[string]attr.Value, len(ids))
	for id, i := range ids {
		v := unwrapDynamic(docs[i])
		typs[id] = v.Type(ctx)
		vals[id] = v
	}
	obj, diags := types.ObjectValue(typs, vals)
	if diags.HasError() {
		return nil, fmt.Errorf("building the manifests object: %s", diagsText(diags))
	}
	return obj, nil
}

// manifestIndex maps each manifest ID to the index of its document.
// unknown is true when some ID cannot be known yet.
func manifestIndex(docs []attr.Value) (ids map[string]int, unknown bool, err error) {
	ids = make(map[string]int, len(docs))
	for i, doc := range docs {
		id, skip, unk, err := manifestID(doc)
		if err != nil {
			return nil, false, fmt.Errorf("document %d: %w", i, err)
		}
		if skip {
			continue
		}
		if unk {
			unknown = true
			continue
		}
		if j, dup := ids[id]; dup {
			return nil, false, &duplicateManifestError{First: j, Second: i}
		}
		ids[id] = i
	}
	return ids, unknown, nil
}

// documentsOf reads the argument of manifests(): a tuple, list or set of
// documents, or one document (an object or map). Null means no documents.
// unknown is true when the argument, or its list of documents, is unknown.
func documentsOf(d types.Dynamic) (docs []attr.Value, unknown bool, err error) {
	if d.IsNull() {
		return nil, false, nil
	}
	if d.IsUnknown() {
		return nil, true, nil
	}
	v := d.UnderlyingValue()
	if v == nil || v.IsNull() {
		return nil, false, nil
	}
	if v.IsUnknown() {
		return nil, true, nil
	}
	switch tv := v.(type) {
	case basetypes.TupleValue:
		return tv.Elements(), false, nil
	case basetypes.ListValue:
		return tv.Elements(), false, nil
	case basetypes.SetValue:
		return tv.Elements(), false, nil
	case basetypes.ObjectValue, basetypes.MapValue:
		return []attr.Value{tv}, false, nil
	}
	return nil, false, fmt.Errorf("documents must be a document (an object) or a tuple of documents, got %s", typeName(v))
}
