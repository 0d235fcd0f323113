package tree

import "github.com/celyaml/terraform-provider-celyaml/internal/engine/value"

// Duplicate keys (reference §2, §6). A key that the template writes itself
// may be named in the error; a key computed from a variable may hold the
// variable's value and is never shown.

// WritesKey reports whether the template writes key k itself at the top
// level of what t produces: a regular key of a mapping, a literal $key, or
// such a key of a $then, $else or $do body.
func WritesKey(t Node, k string) bool {
	switch t := t.(type) {
	case *ConstNode:
		m, ok := t.Value.(*value.Map)
		return ok && m.Has(k)
	case *MapNode:
		for _, e := range t.Entries {
			if e.Prod < 0 && e.Name == k {
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
// itself in what it produces (such as $for, whose body does).
type KeyWriter interface {
	WritesKey(k string) bool
}

// producerWritesKey is WritesKey for a producer.
func producerWritesKey(p Producer, k string) bool {
	w, ok := p.(KeyWriter)
	return ok && w.WritesKey(k)
}

// EntryWrites reports whether entry e is a place where the template
// writes key k itself (see writesKey).
func (m *MapNode) EntryWrites(e MapEntry, k string) bool {
	return e.Prod < 0 || producerWritesKey(m.Prods[e.Prod], k)
}
