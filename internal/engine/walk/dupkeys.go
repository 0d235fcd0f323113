package walk

import (
	"strconv"

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

// producerWritesKey is writesKey for a producer.
func producerWritesKey(p producer, k string) bool {
	switch p := p.(type) {
	case *ifDir:
		return writesKey(p.then, k) || writesKey(p.els, k)
	case *forDir:
		return writesKey(p.body, k)
	case *kvDir:
		c, ok := p.k.(*constNode)
		return ok && keyText(c.v) == k
	}
	return false
}

// keyText is the text a literal $key gives, or "" when it gives none.
func keyText(v Value) string {
	switch v := v.(type) {
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case bool:
		return strconv.FormatBool(v)
	}
	return ""
}

// forDupMsg is the error for two iterations of a value-position $for that
// give the same key. When the body writes the key itself, the key is
// named, and the list the user probably meant is shown as an item.
func forDupMsg(d *forDir, k string) string {
	if !writesKey(d.body, k) {
		return "duplicate key: two iterations of this $for produce the same key (the key is not shown, as it may hold a variable's value)"
	}
	return "duplicate key " + quote(k) + ": every iteration of this $for writes it, and in value position the iterations merge into one mapping; to build a list, write the $for as an item: `" + listKey(d.path) + ": [ {$for: …, $do: …} ]`"
}

// listKey is the key a value-position directive stands under, from its
// path ("spec.ports.$for" gives "ports"), or "key" at a document root.
func listKey(path string) string {
	end := len(path)
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] != '.' {
			continue
		}
		if path[i+1] != '$' {
			return path[i+1 : end]
		}
		end = i
	}
	if end > 0 && path[0] != '$' {
		return path[:end]
	}
	return "key"
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
