// Package kubetypes gives the unknown values in rendered Kubernetes
// documents the types their kind's schema declares at their place, as the
// hashicorp/kubernetes provider's kubernetes_manifest reads a manifest at
// plan (the unknown-values guide, "What is typed from where").
//
// kubernetes_manifest turns a kind's OpenAPI schema into a Terraform type
// (an int-or-string or a quantity is a string, an integer or a number a
// number, an array with items a list, or a tuple when the items' type
// holds a dynamic part, an object with properties an object, one with
// only additionalProperties a map, anything else dynamic) and converts the
// manifest to it before planning. An unknown value survives that
// conversion only as an unknown of exactly the primitive type declared
// there, or, in place of a collection or object, as an unknown of dynamic
// type, which it then types itself; an unknown list, map or object of any
// concrete type is refused ("unmarshaling unknown values is not
// supported"), and inside a list or a map every element must have exactly
// the element type, so no unknown collection or object can stand there.
// So this package gives each unknown of dynamic type in a primitive place
// the place's type; makes each unknown collection or object dynamic once
// its type is checked against its place, or, inside such a strict list or
// map, makes the outermost strict one around it one dynamic unknown; and
// reports a type that disagrees with its place, naming both types and the
// path, never a value.
//
// Terraform checks at apply that a planned value's type still holds, so a
// type given from a place is a promise about the value that replaces the
// unknown. An int-or-string place is therefore given dynamic, not the
// string kubernetes_manifest reads, for an unknown not known to be a
// string: the value at apply may be a number.
//
// The package knows nothing of Terraform: it reads structural schemas
// (k8s.io/apiextensions-apiserver) and engine values.
package kubetypes

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

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
	type kindKey struct{ apiVersion, kind string }
	roots := map[kindKey]*node{}
	pathBuf := make([]step, 0, 32)
	for i, d := range docs {
		m, ok := d.(*value.Map)
		if !ok || !value.HasUnknown(m) { // one pass, and no schema read, for a document all known
			continue
		}
		var typed value.Value = m
		changed := false
		av, _ := stringAt(m, "apiVersion")
		kind, _ := stringAt(m, "kind")
		if av != "" && kind != "" {
			key := kindKey{av, kind}
			root, seen := roots[key]
			if !seen {
				// A kind no schema covers keeps its values' types.
				if sch, err := lookup(av, kind); err == nil && sch != nil {
					if !metaDone {
						metaDone = true
						meta = objectMeta(lookup)
					}
					root = rootNode(sch, meta)
				}
				roots[key] = root
			}
			if root != nil {
				var err error
				if typed, changed, err = root.value(m, pathBuf[:0], 0, false); err != nil {
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

// objectMeta gives the schema whose metadata property is ObjectMeta's, as
// kubernetes_manifest gives a custom kind's metadata the type of
// ObjectMeta whatever its CRD says: the built-in ConfigMap's, nil without
// the built-in kinds.
func objectMeta(lookup Lookup) *structuralschema.Structural {
	cm, err := lookup("v1", "ConfigMap")
	if err != nil || cm == nil {
		return nil
	}
	return cm
}

// Document types the unknowns of one document by its kind's schema sch,
// with metadata typed by meta's metadata property when the schema does
// not describe it (a CRD's `metadata: {type: object}`). status is left as it is, as
// kubernetes_manifest leaves it out of the manifest's type.
func Document(doc *value.Map, sch, meta *structuralschema.Structural) (value.Value, error) {
	v, _, err := rootNode(sch, meta).value(doc, nil, 0, false)
	return v, err
}

// node is a schema as kubernetes_manifest types it, with its children
// made once: a kind's tree is built the first time a document of it is
// typed and kept (nodes), so a render pays for the paths its unknowns
// are on only.
type node struct {
	kind  kind
	name  string // the type, as an error names it
	props map[string]*node
	elem  *node // a list's items, a map's additionalProperties
	// dyn is whether the type holds a dynamic part: kubernetes_manifest
	// types a list whose items' type does as a tuple, whose elements may
	// differ, and one whose items' type does not as a list, whose every
	// element must have exactly that type; a map's every element must
	// have exactly its element type too. Such a list or map, whose
	// element type holds nothing dynamic, is strict.
	dyn bool
}

// nodes keeps the trees of the schemas seen, by the schema and the
// metadata schema put in it; past maxNodes roots it starts again (each
// render's own CRDs are new schemas).
var nodes = struct {
	sync.Mutex
	m map[[2]*structuralschema.Structural]*node
}{m: map[[2]*structuralschema.Structural]*node{}}

const maxNodes = 512

// rootNode gives the tree of a kind's schema sch, with metadata typed by
// meta's metadata property when sch does not describe it, and without
// status.
func rootNode(sch, meta *structuralschema.Structural) *node {
	key := [2]*structuralschema.Structural{sch, meta}
	nodes.Lock()
	n := nodes.m[key]
	nodes.Unlock()
	if n != nil {
		return n
	}
	n = build(sch, 0)
	if n.kind == kindObject {
		if m := n.props["metadata"]; meta != nil && (m == nil || m.kind != kindObject) {
			if om, ok := meta.Properties["metadata"]; ok {
				n.props["metadata"] = build(&om, 1)
			}
		}
		delete(n.props, "status")
	}
	nodes.Lock()
	if len(nodes.m) >= maxNodes {
		clear(nodes.m)
	}
	nodes.m[key] = n
	nodes.Unlock()
	return n
}

// build makes the tree of s.
func build(s *structuralschema.Structural, depth int) *node {
	n := &node{kind: kindOf(s), name: name(s, 0)}
	if depth > maxDepth {
		n.kind = kindDynamic
		return n
	}
	switch n.kind {
	case kindDynamic:
		n.dyn = true
	case kindObject:
		n.props = make(map[string]*node, len(s.Properties))
		for k := range s.Properties {
			p := s.Properties[k]
			c := build(&p, depth+1)
			n.props[k] = c
			n.dyn = n.dyn || c.dyn
		}
	case kindList:
		n.elem = build(s.Items, depth+1)
		n.dyn = n.elem.dyn
	case kindMap:
		n.elem = build(s.AdditionalProperties.Structural, depth+1)
		n.dyn = n.elem.dyn
	}
	return n
}

// errHoist is what typing an unknown inside a strict list or map gives
// when kubernetes_manifest accepts no unknown at its place there (a list,
// map or object, or an int-or-string not known to be a string): the
// outermost strict list or map around it becomes one unknown of dynamic
// type, which it accepts outside a strict collection and types itself.
var errHoist = errors.New("kubetypes: hoist the unknown to the outermost strict list")

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
	if s.XIntOrString || stringOrNumber(s) {
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

// stringOrNumber reports whether s has no type of its own and allows one
// of a string and a number (`oneOf` or `anyOf`), as a Quantity is written
// in the OpenAPI v3 documents: the OpenAPI v2 document kubernetes_manifest
// reads the built-in kinds from writes it as a string, which it reads as
// an int-or-string is read.
func stringOrNumber(s *structuralschema.Structural) bool {
	if s.Type != "" || s.XPreserveUnknownFields || s.ValueValidation == nil {
		return false
	}
	for _, alts := range [][]structuralschema.NestedValueValidation{s.ValueValidation.OneOf, s.ValueValidation.AnyOf} {
		str, num := false, false
		for _, a := range alts {
			switch a.ForbiddenGenerics.Type {
			case "string":
				str = true
			case "number", "integer":
				num = true
			}
		}
		if str && num {
			return true
		}
	}
	return false
}

// primitive is the engine type of a primitive kind.
func (k kind) primitive() (value.Type, bool) {
	switch k {
	case kindString:
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
		return "an int-or-string or a quantity (a number or a string)"
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

// value types v, at path, by the node's type; changed is false when v is
// returned as it is.
//
// strict says that v lies inside a strict list (see node.dyn), where an
// unknown that kubernetes_manifest cannot take gives errHoist; the
// outermost strict list catches it and becomes one dynamic unknown.
func (n *node) value(v value.Value, path []step, depth int, strict bool) (out value.Value, changed bool, err error) {
	if n.kind == kindDynamic || depth > maxDepth {
		return v, false, nil // kubernetes_manifest takes any value here as it is
	}
	switch x := v.(type) {
	case value.Unknown:
		nu, err := n.unknown(x, path, strict)
		return nu, err == nil, err
	case *value.Map:
		switch n.kind {
		case kindObject:
			return n.mapping(x, func(key string) *node { return n.props[key] }, path, depth, strict)
		case kindMap:
			out, changed, err := n.mapping(x, func(string) *node { return n.elem }, path, depth, strict || !n.elem.dyn)
			if errors.Is(err, errHoist) && !strict {
				return value.UnknownOf(value.TypeDynamic), true, nil
			}
			return out, changed, err
		}
	case []value.Value:
		if n.kind != kindList {
			return v, false, nil
		}
		inner := strict || !n.elem.dyn
		var list []value.Value
		for i, e := range x {
			if !mayChange(e) {
				continue // a known scalar
			}
			ne, changed, err := n.elem.value(e, append(path, step{index: i}), depth+1, inner)
			if errors.Is(err, errHoist) && !strict {
				return value.UnknownOf(value.TypeDynamic), true, nil
			}
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

// mapping types the entries of m by the node each key has (nil: none,
// and the entry is left as it is).
func (n *node) mapping(m *value.Map, of func(string) *node, path []step, depth int, strict bool) (value.Value, bool, error) {
	var out *value.Map
	for i := 0; i < m.Len(); i++ {
		key, e := m.At(i)
		c := of(key)
		if c == nil || !mayChange(e) { // nothing to type, or a known scalar
			continue
		}
		ne, changed, err := c.value(e, append(path, step{key: key, index: -1}), depth+1, strict)
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

// mayChange reports whether typing can change v: an unknown, or a map
// or list that may hold one (the walk into it finds out, without
// allocating unless it types something).
func mayChange(v value.Value) bool {
	switch v.(type) {
	case value.Unknown, *value.Map, []value.Value:
		return true
	}
	return false
}

// unknown types an unknown by its place: a primitive place gives its
// primitive type (an unknown number in an int-or-string place is an
// unknown string, as kubernetes_manifest reads an int-or-string); a
// collection or object place makes it dynamic, the only unknown
// kubernetes_manifest accepts there, once its own type fits the place.
func (n *node) unknown(u value.Unknown, path []step, strict bool) (value.Value, error) {
	if n.kind == kindIntOrString {
		// kubernetes_manifest reads an int-or-string as a string, and
		// takes an unknown there as a string or dynamic only; the value
		// that replaces it at apply must have the type it had at plan, so
		// an unknown not known to be a string is dynamic (outside a
		// strict list) rather than a string.
		switch u.Type.Kind() {
		case value.KindString:
			return u, nil
		case value.KindDynamic, value.KindNumber:
			if strict {
				return nil, errHoist
			}
			return value.UnknownOf(value.TypeDynamic), nil
		}
		return nil, n.mismatch(u.Type, path)
	}
	if p, ok := n.kind.primitive(); ok {
		if u.Type.IsDynamic() || u.Type.Equal(p) {
			return value.UnknownOf(p), nil
		}
		return nil, n.mismatch(u.Type, path)
	}
	if err := n.fits(u.Type, path, 0); err != nil {
		return nil, err
	}
	if strict {
		return nil, errHoist
	}
	return value.UnknownOf(value.TypeDynamic), nil
}

// fits checks that a value of type ut can go where n is, naming both
// types when it cannot.
func (n *node) fits(ut value.Type, path []step, depth int) error {
	if ut.IsDynamic() || n.kind == kindDynamic || depth > maxDepth {
		return nil
	}
	if n.kind == kindIntOrString && (ut.Kind() == value.KindNumber || ut.Kind() == value.KindString) {
		return nil
	}
	if p, ok := n.kind.primitive(); ok {
		if ut.Equal(p) {
			return nil
		}
		return n.mismatch(ut, path)
	}
	switch ut.Kind() {
	case value.KindList, value.KindSet:
		if n.kind == kindList {
			return n.elem.fits(ut.Elem(), append(path, step{index: -2}), depth+1)
		}
	case value.KindTuple:
		if n.kind == kindList {
			for i, e := range ut.Elems() {
				if err := n.elem.fits(e, append(path, step{index: i}), depth+1); err != nil {
					return err
				}
			}
			return nil
		}
	case value.KindMap:
		switch n.kind {
		case kindMap:
			return n.elem.fits(ut.Elem(), append(path, step{index: -2}), depth+1)
		case kindObject:
			return nil // kubernetes_manifest converts a map's entries to the attributes
		}
	case value.KindObject:
		switch n.kind {
		case kindMap:
			for _, a := range ut.AttributeNames() {
				at, _ := ut.Attribute(a)
				if err := n.elem.fits(at, append(path, step{key: a, index: -1}), depth+1); err != nil {
					return err
				}
			}
			return nil
		case kindObject:
			for _, a := range ut.AttributeNames() {
				c, ok := n.props[a]
				if !ok {
					continue // not in the schema: kubernetes_manifest drops it with a warning
				}
				at, _ := ut.Attribute(a)
				if err := c.fits(at, append(path, step{key: a, index: -1}), depth+1); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return n.mismatch(ut, path)
}

// mismatch is the error of a type that cannot go where n is.
func (n *node) mismatch(ut value.Type, path []step) error {
	return fmt.Errorf("%s: an unknown %s where the kind's schema declares %s; convert it in the template (string(...), int(...), ...) or give the input that type",
		pathText(path), ut, n.name)
}

// step is one step of a path from a document's root: a key, an index
// (index >= 0), or any element ("[*]", index -2). A path is a slice of
// them that grows in one buffer per render: a step's siblings reuse its
// place, and an error writes the path out at once.
type step struct {
	key   string
	index int
}

// pathText writes a path as `spec.containers[0].args`.
func pathText(path []step) string {
	if len(path) == 0 {
		return "(the document)"
	}
	var b strings.Builder
	for i, p := range path {
		switch {
		case p.index >= 0:
			b.WriteString("[" + strconv.Itoa(p.index) + "]")
		case p.index == -2:
			b.WriteString("[*]")
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(p.key)
		}
	}
	return b.String()
}

// stringAt gives the string stored under key.
func stringAt(m *value.Map, key string) (string, bool) {
	v, _ := m.Get(key)
	s, ok := v.(string)
	return s, ok
}
