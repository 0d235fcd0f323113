package check

import (
	"net/url"
	"strconv"
	"strings"

	apiservercel "k8s.io/apiserver/pkg/cel"
)

// Local $refs (reference §4 $schema: a $ref may only point inside the same
// schema): `#/definitions/x`, `#/$defs/x`, any JSON Pointer into the
// variable's schema, or `#`, the schema itself. The type is the type of
// the schema it points at. Dyn: a $ref that is no local JSON Pointer (an
// anchor, another file), one that points at nothing, one met again while
// it is resolved (a recursive schema), a schema with an $id below its
// root (which moves where a $ref inside it points), and a $ref beside
// keywords that give the value more structure (its properties, items),
// which would have to be merged with the target's.

// refSiblingsDyn are the keywords that, beside a $ref, leave the value a
// type the target's alone does not give.
var refSiblingsDyn = []string{"properties", "additionalProperties", "items"}

// refType is the type of schema m, whose $ref is ref, found at path.
func (t *schemaTyper) refType(m map[string]any, ref any, path string, depth int) *apiservercel.DeclType {
	rs, ok := ref.(string)
	if t.ids == 0 {
		t.ids = 1
		if nestedID(t.root, 0) {
			t.ids = 2
		}
	}
	if !ok || t.active[rs] || t.ids == 2 {
		return apiservercel.DynType
	}
	for _, k := range refSiblingsDyn {
		if _, has := m[k]; has {
			return apiservercel.DynType
		}
	}
	if r, ok := t.refs[rs]; ok {
		// The type is shared, but counts as often as it is used: the
		// checker's environment walks it at each place.
		if t.nodes += r.size; t.nodes > maxTypedSchemas {
			return apiservercel.DynType
		}
		return r.typ
	}
	target, ok := pointTo(t.root, rs)
	if !ok {
		return apiservercel.DynType
	}
	if t.active == nil {
		t.active, t.refs = map[string]bool{}, map[string]resolvedRef{}
	}
	t.active[rs] = true
	before := t.nodes
	typ := t.schemaType(target, path, depth+1)
	delete(t.active, rs)
	t.refs[rs] = resolvedRef{typ: typ, size: t.nodes - before}
	return typ
}

// resolvedRef is the type a $ref gives, and the number of schemas it
// spans.
type resolvedRef struct {
	typ  *apiservercel.DeclType
	size int
}

// pointTo follows the local $ref ref from root: `#` or `#/` and a JSON
// Pointer, its tokens escaped as JSON Pointer (~0, ~1) and URI fragment
// (%xx) escape them.
func pointTo(root any, ref string) (any, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, false
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return nil, false
	}
	if frag == "" {
		return root, true
	}
	rest, ok := strings.CutPrefix(frag, "/")
	if !ok {
		return nil, false // an anchor
	}
	at := root
	for _, tok := range strings.Split(rest, "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v := at.(type) {
		case map[string]any:
			if at, ok = v[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v) {
				return nil, false
			}
			at = v[i]
		default:
			return nil, false
		}
	}
	return at, true
}

// nestedID reports whether a schema below s (not s itself, at depth 0)
// has an $id.
func nestedID(s any, depth int) bool {
	if depth > 64 {
		return true
	}
	switch v := s.(type) {
	case map[string]any:
		if _, has := v["$id"]; has && depth > 0 {
			return true
		}
		for _, c := range v {
			if nestedID(c, depth+1) {
				return true
			}
		}
	case []any:
		for _, c := range v {
			if nestedID(c, depth+1) {
				return true
			}
		}
	}
	return false
}
