package walk

import (
	"go.yaml.in/yaml/v3"
)

// Duplicate keys (reference §2, §6). A key that the template writes itself
// may be named in the error; a key computed from a variable may hold the
// variable's value and is never shown.

// writesKey reports whether the template writes key k itself at the top
// level of what t produces: a regular key of a mapping, a literal $key, or
// such a key of a $then, $else or $do body.
func writesKey(t tnode, k string) bool {
	switch t := t.(type) {
	case *constNode:
		m, ok := t.v.(*Map)
		return ok && m.Has(k)
	case *mapNode:
		for _, e := range t.entries {
			if e.prod < 0 && e.name == k {
				return true
			}
		}
		for _, p := range t.prods {
			if producerWritesKey(p, k) {
				return true
			}
		}
	}
	return false
}

// keyWriter is a producer that can say whether the template writes a key
// itself in what it produces ($if, $for, $key).
type keyWriter interface {
	writesKey(k string) bool
}

// producerWritesKey is writesKey for a producer.
func producerWritesKey(p producer, k string) bool {
	w, ok := p.(keyWriter)
	return ok && w.writesKey(k)
}

// origin says where a mapping entry gives a key: written, or produced by a
// directive, at its key's line and column.
func origin(prod string, key *yaml.Node) string {
	at := "line " + itoa(key.Line) + ", column " + itoa(key.Column)
	if prod == "" {
		return "written at " + at
	}
	return "produced by " + prod + " at " + at
}
