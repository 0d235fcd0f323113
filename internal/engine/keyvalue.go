package engine

import (
	"strconv"

	"go.yaml.in/yaml/v3"
)

// $key / $value give a one-entry mapping with a computed key. They are
// allowed anywhere, and replace or merge like any other producer.

type kvDir struct {
	key, valueKey *yaml.Node
	k, v          tnode
	path          string
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

func (d *kvDir) value(r *renderer, sc *scope, fr *frame) (Value, bool, error) {
	k, ok, err := r.value(d.k, sc, fr)
	if err != nil {
		return nil, false, err
	}
	if !ok {
		return nil, false, r.errAt(fr, d.key, d.path, "$key gave nothing: it must give a string")
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
		return Unknown{}, true, nil
	default:
		return nil, false, r.errAt(fr, d.key, d.path, "$key must give a string (an int or bool is turned into text), got "+valueKind(k))
	}
	v, ok, err := r.value(d.v, sc, fr)
	if err != nil {
		return nil, false, err
	}
	if !ok {
		return nil, false, nil
	}
	m := NewMap(1)
	m.Set(ks, v)
	if err := r.count(fr, d.key, d.path, 2, len(ks)+2); err != nil {
		return nil, false, err
	}
	return m, true, nil
}

func (d *kvDir) multi(r *renderer, sc *scope, fr *frame, pos position, dst []Value) ([]Value, error) {
	v, ok, err := d.value(r, sc, fr)
	if err != nil {
		return dst, err
	}
	if ok {
		dst = append(dst, v)
	}
	return dst, nil
}
