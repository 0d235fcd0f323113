package walk

import (
	"go.yaml.in/yaml/v3"
)

// Duplicate keys (reference §2, §6). A key that the template writes itself
// may be named in the error; a key computed from a variable may hold the
// variable's value and is never shown.

// WritesKey reports whether the template writes key k itself at the top
// level of what t produces: a regular key of a mapping, a literal $key, or
// such a key of a $then, $else or $do body.
func WritesKey(t Node, k string) bool {
	switch t := t.(type) {
	case *ConstNode:
		m, ok := t.Value.(*Map)
		return ok && m.Has(k)
	case *MapNode:
		for _, e := range t.Entries {
			if e.prod < 0 && e.name == k {
				return true
			}
		}
		for _, p := range t.Prods {
			if producerWritesKey(p, k) {
				return true
			}
		}
	}
	return false
}

// KeyWriter is a producer that can say whether the template writes a key
// itself in what it produces ($if, $for, $key).
type KeyWriter interface {
	WritesKey(k string) bool
}

// producerWritesKey is WritesKey for a producer.
func producerWritesKey(p Producer, k string) bool {
	w, ok := p.(KeyWriter)
	return ok && w.WritesKey(k)
}

// origin says where a mapping entry gives a key: written, or produced by a
// directive, at its key's line and column.
func origin(prod string, key *yaml.Node) string {
	at := "line " + Itoa(key.Line) + ", column " + Itoa(key.Column)
	if prod == "" {
		return "written at " + at
	}
	return "produced by " + prod + " at " + at
}

// entryWrites reports whether entry e is a place where the template
// writes key k itself (see writesKey).
func (m *MapNode) entryWrites(e MapEntry, k string) bool {
	return e.prod < 0 || producerWritesKey(m.Prods[e.prod], k)
}

// dupErr reports key k, given again by entry ei, naming the entry that gave
// it first. The key is printed only when one of the two places writes it
// in the template: a produced key may hold a variable's value.
func (r *Renderer) dupErr(m *MapNode, results []*Map, ei int, k string, fr *Frame) error {
	where := func(e MapEntry) string {
		if e.prod >= 0 {
			return origin(m.Prods[e.prod].Name(), e.key)
		}
		return origin("", e.key)
	}
	var first MapEntry
	for _, e := range m.Entries[:ei+1] {
		if (e.prod >= 0 && results[e.prod].Has(k)) || (e.prod < 0 && e.name == k) {
			first = e
			break
		}
	}
	e := m.Entries[ei]
	if m.entryWrites(first, k) || m.entryWrites(e, k) {
		return r.ErrAt(fr, e.key, JoinPath(m.path, k), "duplicate key "+Quote(k)+": "+where(first)+", and again "+where(e))
	}
	return r.ErrAt(fr, e.key, m.path, "duplicate key: "+where(first)+", and again "+where(e)+" (the key is not shown, as it may hold a variable's value)")
}
