// Package kubetypes gives the unknown values in rendered Kubernetes
// documents the types their kind's schema declares at their place, as the
// hashicorp/kubernetes provider's kubernetes_manifest reads a manifest at
// plan (the unknown-values guide, "Types from where the value lands").
//
// kubernetes_manifest turns a kind's OpenAPI schema into a Terraform type
// (an int-or-string is a string, an integer or a number a number, an
// array with items a list, an object with properties an object, one with
// only additionalProperties a map, anything else dynamic) and converts the
// manifest to it before planning. An unknown value survives that
// conversion only as an unknown of exactly the primitive type declared
// there, or, in place of a collection or object, as an unknown of dynamic
// type, which it then types itself; an unknown list, map or object of any
// concrete type is refused ("unmarshaling unknown values is not
// supported"), and inside a list every element must have exactly the
// list's element type. So this package types each unknown primitive by its
// place, makes each unknown collection or object dynamic once its type is
// checked against its place, and reports a type that disagrees with its
// place, naming both types and the path, never a value.
//
// The package knows nothing of Terraform: it reads structural schemas
// (k8s.io/apiextensions-apiserver) and engine values.
package kubetypes

import (
	"fmt"
	"strconv"
	"strings"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// Lookup gives the structural schema of the documents of apiVersion and
// kind, or nil when no schema covers them.
type Lookup func(apiVersion, kind string) (*structuralschema.Structural, error)

// maxDepth bounds how deep a document is followed.
const maxDepth = 128

// Documents gives docs with the unknowns in each document typed by its
// kind's schema (Document). A document with no unknown, or whose
// apiVersion or kind is not a known string, or that no schema covers, is
// returned as it is. (Whatever the engine knows of an unknown collection
// or object, it is written out dynamic: value.Type.Written.) docs itself is never modified; a typed document is a
// copy of what changed.
func Documents(docs []value.Value, lookup Lookup) ([]value.Value, error) {
	var out []value.Value
	var meta *structuralschema.Structural
	metaDone := false
	for i, d := range docs {
		m, ok := d.(*value.Map)
		if !ok || !hasUnknown(m) {
			continue
		}
		var typed value.Value = m
		changed := false
		av, _ := stringAt(m, "apiVersion")
		kind, _ := stringAt(m, "kind")
		if av != "" && kind != "" {
			// A kind no schema covers keeps its values' types.
			if sch, err := lookup(av, kind); err == nil && sch != nil {
				if !metaDone {
					metaDone = true
					meta = objectMeta(lookup)
				}
				if typed, changed, err = document(m, sch, meta); err != nil {
					return nil, fmt.Errorf("document %d (%s %s): %w", i, av, kind, err)
				}
			}
		}
		if changed {
			if out == nil {
				out = append([]value.Value(nil), docs...)
			}
			out[i] = typed
		}
	}
	if out == nil {
		return docs, nil
	}
	return out, nil
}

// objectMeta is the schema of metadata, as kubernetes_manifest gives a
// custom kind's metadata the type of ObjectMeta whatever its CRD says: the
// built-in ConfigMap's, nil without the built-in kinds.
func objectMeta(lookup Lookup) *structuralschema.Structural {
	cm, err := lookup("v1", "ConfigMap")
	if err != nil || cm == nil {
		return nil
	}
	if m, ok := cm.Properties["metadata"]; ok {
		return &m
	}
	return nil
}

// Document types the unknowns of one document by its kind's schema sch,
// with metadata typed by meta when the schema does not describe it (a
// CRD's `metadata: {type: object}`). status is left as it is, as
// kubernetes_manifest leaves it out of the manifest's type.
func Document(doc *value.Map, sch, meta *structuralschema.Structural) (value.Value, error) {
	v, _, err := document(doc, sch, meta)
	return v, err
}

func document(doc *value.Map, sch, meta *structuralschema.Structural) (value.Value, bool, error) {
	root := *sch
	if meta != nil {
		if m, ok := root.Properties["metadata"]; !ok || len(m.Properties) == 0 {
			props := make(map[string]structuralschema.Structural, len(root.Properties)+1)
			for k, v := range root.Properties {
				props[k] = v
			}
			props["metadata"] = *meta
			root.Properties = props
		}
	}
	if _, ok := root.Properties["status"]; ok {
		props := make(map[string]structuralschema.Structural, len(root.Properties))
		for k, v := range root.Properties {
			if k != "status" {
				props[k] = v
			}
		}
		root.Properties = props
	}
	var t typer
	return t.value(doc, &root, nil, 0)
}

// typer walks one document.
type typer struct{}

// kind is how kubernetes_manifest types a schema.
type kind uint8

const (
	kindDynamic kind = iota
	kindString
	kindIntOrString
	kindNumber
	kindBool
	kindList
	kindMap
	kindObject
)

// kindOf is the Terraform type kubernetes_manifest gives a schema, by kind.
func kindOf(s *structuralschema.Structural) kind {
	if s == nil {
		return kindDynamic
	}
	if s.XIntOrString {
		return kindIntOrString
	}
	switch s.Type {
	case "string":
		if s.ValueValidation != nil && s.ValueValidation.Format == "int-or-string" {
			return kindIntOrString
		}
		return kindString
	case "integer", "number":
		return kindNumber
	case "boolean":
		return kindBool
	case "array":
		if s.Items != nil {
			return kindList
		}
	case "object":
		hasAP := s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil
		switch {
		case len(s.Properties) > 0 && !hasAP:
			return kindObject
		case len(s.Properties) == 0 && hasAP:
			return kindMap
		}
	}
	return kindDynamic
}

// primitive is the engine type of a primitive kind.
func (k kind) primitive() (value.Type, bool) {
	switch k {
	case kindString, kindIntOrString:
		return value.TypeString, true
	case kindNumber:
		return value.TypeNumber, true
	case kindBool:
		return value.TypeBool, true
	}
	return value.TypeDynamic, false
}

// name names the type a schema declares, for an error.
func name(s *structuralschema.Structural, depth int) string {
	switch k := kindOf(s); k {
	case kindString:
		return "string"
	case kindIntOrString:
		return "string (an int-or-string)"
	case kindNumber:
		return "number"
	case kindBool:
		return "bool"
	case kindList:
		if depth > 2 {
			return "list"
		}
		return "list(" + name(s.Items, depth+1) + ")"
	case kindMap:
		if depth > 2 {
			return "map"
		}
		return "map(" + name(s.AdditionalProperties.Structural, depth+1) + ")"
	case kindObject:
		return "object"
	}
	return "dynamic"
}

// value types v, at path, by the schema s; changed is false when v is
// returned as it is.
func (t *typer) value(v value.Value, s *structuralschema.Structural, path []string, depth int) (out value.Value, changed bool, err error) {
	if depth > maxDepth {
		return v, false, nil
	}
	k := kindOf(s)
	if k == kindDynamic {
		return v, false, nil // kubernetes_manifest takes any value here as it is
	}
	switch x := v.(type) {
	case value.Unknown:
		nu, err := unknown(x, s, k, path)
		return nu, err == nil, err
	case *value.Map:
		switch k {
		case kindObject:
			return t.mapping(x, func(key string) *structuralschema.Structural {
				if p, ok := s.Properties[key]; ok {
					return &p
				}
				return nil
			}, path, depth)
		case kindMap:
			elem := s.AdditionalProperties.Structural
			return t.mapping(x, func(string) *structuralschema.Structural { return elem }, path, depth)
		}
	case []value.Value:
		if k != kindList {
			return v, false, nil
		}
		var list []value.Value
		for i, e := range x {
			if !mayChange(e) {
				continue
			}
			ne, changed, err := t.value(e, s.Items, append(path, "["+strconv.Itoa(i)+"]"), depth+1)
			if err != nil {
				return nil, false, err
			}
			if changed {
				if list == nil {
					list = append([]value.Value(nil), x...)
				}
				list[i] = ne
			}
		}
		if list != nil {
			return list, true, nil
		}
	}
	return v, false, nil
}

// mapping types the entries of m by the schema each key has (nil: none,
// and the entry is left as it is).
func (t *typer) mapping(m *value.Map, of func(string) *structuralschema.Structural, path []string, depth int) (value.Value, bool, error) {
	var out *value.Map
	for i := 0; i < m.Len(); i++ {
		key, e := m.At(i)
		s := of(key)
		if s == nil || !mayChange(e) {
			continue
		}
		ne, changed, err := t.value(e, s, append(path, key), depth+1)
		if err != nil {
			return nil, false, err
		}
		if changed {
			if out == nil {
				out = m.Clone(0)
			}
			out.SetAt(i, ne)
		}
	}
	if out != nil {
		return out, true, nil
	}
	return m, false, nil
}

// mayChange reports whether typing can change v: whether it holds an
// unknown.
func mayChange(v value.Value) bool {
	switch v.(type) {
	case value.Unknown, *value.Map, []value.Value:
		return hasUnknown(v)
	}
	return false
}

// unknown types an unknown by the schema of its place: a primitive place
// gives its primitive type (an unknown number in an int-or-string place is
// an unknown string, as kubernetes_manifest reads an int-or-string); a
// collection or object place makes it dynamic, the only unknown
// kubernetes_manifest accepts there, once its own type fits the place.
func unknown(u value.Unknown, s *structuralschema.Structural, k kind, path []string) (value.Value, error) {
	if p, ok := k.primitive(); ok {
		switch {
		case u.Type.IsDynamic(), u.Type.Equal(p):
			return value.UnknownOf(p), nil
		case k == kindIntOrString && u.Type.Kind() == value.KindNumber:
			return value.UnknownOf(value.TypeString), nil
		}
		return nil, mismatch(u.Type, s, path)
	}
	if err := fits(u.Type, s, path, 0); err != nil {
		return nil, err
	}
	return value.UnknownOf(value.TypeDynamic), nil
}

// fits checks that a value of type ut can go where s is declared, naming
// both types when it cannot.
func fits(ut value.Type, s *structuralschema.Structural, path []string, depth int) error {
	k := kindOf(s)
	if ut.IsDynamic() || k == kindDynamic || depth > maxDepth {
		return nil
	}
	if p, ok := k.primitive(); ok {
		if ut.Equal(p) || (k == kindIntOrString && ut.Kind() == value.KindNumber) {
			return nil
		}
		return mismatch(ut, s, path)
	}
	switch ut.Kind() {
	case value.KindList, value.KindSet:
		if k == kindList {
			return fits(ut.Elem(), s.Items, append(path, "[*]"), depth+1)
		}
	case value.KindTuple:
		if k == kindList {
			for i, e := range ut.Elems() {
				if err := fits(e, s.Items, append(path, "["+strconv.Itoa(i)+"]"), depth+1); err != nil {
					return err
				}
			}
			return nil
		}
	case value.KindMap:
		switch k {
		case kindMap:
			return fits(ut.Elem(), s.AdditionalProperties.Structural, append(path, "[*]"), depth+1)
		case kindObject:
			return nil // kubernetes_manifest converts a map's entries to the attributes
		}
	case value.KindObject:
		switch k {
		case kindMap:
			for _, n := range ut.AttributeNames() {
				at, _ := ut.Attribute(n)
				if err := fits(at, s.AdditionalProperties.Structural, append(path, n), depth+1); err != nil {
					return err
				}
			}
			return nil
		case kindObject:
			for _, n := range ut.AttributeNames() {
				p, ok := s.Properties[n]
				if !ok {
					continue // not in the schema: kubernetes_manifest drops it with a warning
				}
				at, _ := ut.Attribute(n)
				if err := fits(at, &p, append(path, n), depth+1); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return mismatch(ut, s, path)
}

// mismatch is the error of a type that cannot go where s is declared.
func mismatch(ut value.Type, s *structuralschema.Structural, path []string) error {
	return fmt.Errorf("%s: an unknown %s where the kind's schema declares %s; convert it in the template (string(...), int(...), ...) or give the input that type",
		pathText(path), ut, name(s, 0))
}

// pathText writes a path as `spec.containers[0].args`.
func pathText(path []string) string {
	if len(path) == 0 {
		return "(the document)"
	}
	var b strings.Builder
	for i, p := range path {
		if i > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// hasUnknown reports whether v holds an unknown anywhere.
func hasUnknown(v value.Value) bool {
	switch x := v.(type) {
	case value.Unknown:
		return true
	case *value.Map:
		for i := 0; i < x.Len(); i++ {
			if _, e := x.At(i); hasUnknown(e) {
				return true
			}
		}
	case []value.Value:
		for _, e := range x {
			if hasUnknown(e) {
				return true
			}
		}
	}
	return false
}

// stringAt gives the string stored under key.
func stringAt(m *value.Map, key string) (string, bool) {
	v, _ := m.Get(key)
	s, ok := v.(string)
	return s, ok
}
