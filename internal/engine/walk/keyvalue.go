package walk

import (
	"strconv"

	"go.yaml.in/yaml/v3"
)

// $key / $value give a one-entry mapping with a computed key. They are
// allowed anywhere, and replace or merge like any other producer.

type kvDir struct {
	key  *yaml.Node
	k, v tnode
	path string
}

func (c *compiler) kvDir(key, kn, vn *yaml.Node, path string) (producer, *compileError) {
	d := &kvDir{key: key, path: joinPath(path, "$key")}
	var err *compileError
	if d.k, err = c.node(kn, d.path); err != nil {
		return nil, err
	}
	if d.v, err = c.node(vn, joinPath(path, "$value")); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *kvDir) keyNode() *yaml.Node { return d.key }
func (d *kvDir) name() string        { return "$key" }

const (
	kvEntry = iota
	kvNothing
	kvUnknown
)

// entry renders the key and the value.
func (d *kvDir) entry(r *renderer, sc *scope, fr *frame) (string, Value, int, error) {
	k, ok, err := r.value(d.k, sc, fr)
	if err != nil {
		return "", nil, 0, err
	}
	if !ok {
		return "", nil, 0, r.errAt(fr, d.key, d.path, "$key gave nothing: it must give a string")
	}
	var ks string
	switch k := k.(type) {
	case string:
		ks = k
	case int64:
		ks = strconv.FormatInt(k, 10)
	case bool:
		ks = strconv.FormatBool(k)
	case Unknown:
		return "", nil, kvUnknown, nil
	default:
		return "", nil, 0, r.errAt(fr, d.key, d.path, "$key must give a string (an int or bool is turned into text), got "+valueKind(k))
	}
	v, ok, err := r.value(d.v, sc, fr)
	if err != nil {
		return "", nil, 0, err
	}
	if !ok {
		return "", nil, kvNothing, nil
	}
	if err := r.count(fr, d.key, d.path, 1, len(ks)+2); err != nil {
		return "", nil, 0, err
	}
	return ks, v, kvEntry, nil
}

func (d *kvDir) value(r *renderer, sc *scope, fr *frame) (Value, bool, error) {
	k, v, state, err := d.entry(r, sc, fr)
	if err != nil || state == kvNothing {
		return nil, false, err
	}
	if state == kvUnknown {
		return Unknown{}, true, nil
	}
	m := NewMap(1)
	m.Set(k, v)
	if err := r.count(fr, d.key, d.path, 1, 0); err != nil {
		return nil, false, err
	}
	return m, true, nil
}

// multi gives one item (or document), or nothing.
func (d *kvDir) multi(r *renderer, sc *scope, fr *frame, _ position, dst []Value) ([]Value, error) {
	v, ok, err := d.value(r, sc, fr)
	return appendIf(dst, v, ok, err)
}

// writesKey reports whether the $key is the literal k.
func (d *kvDir) writesKey(k string) bool {
	c, ok := d.k.(*constNode)
	return ok && keyText(c.v) == k
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

func init() {
	register(directive{rank: 110, name: "$key", kind: dirProducer, needs: "$value", patchable: true,
		missing: "$key without $value: $key and $value make one entry together",
		produce: func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError) {
			return c.kvDir(p.k, p.v, d.value("$value"), path)
		}})
	register(directive{rank: 120, name: "$value", kind: dirPartner, needs: "$key",
		missing: "$value without $key: $key and $value make one entry together"})
}
