package walk

import (
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/emit"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/lex"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/traits"
	"go.yaml.in/yaml/v3"
)

// $for / $do renders the body once per element. Lists are walked in
// order, maps in sorted key order. `x in MAP` binds keys; `a, b in MAP`
// binds key and value; `a, b in LIST` binds index and element.

type forDir struct {
	key     *yaml.Node
	doKey   *yaml.Node
	v1, v2  string
	coll    *exprRef
	body    tnode
	bodySeq bool
	path    string
}

func (c *compiler) forDir(key, spec *yaml.Node, doP kvPair, path string) (producer, *compileError) {
	do := doP.v
	sn := deref(spec)
	s, ok := stringScalar(sn)
	if !ok {
		return nil, cerr(sn, path, `$for takes a string "x in EXPR" or "a, b in EXPR", got `+yamlnode.AKind(sn))
	}
	m := forSyntax.FindStringSubmatchIndex(s)
	if m == nil || strings.TrimSpace(s[m[1]:]) == "" {
		msg := `$for must be "x in EXPR" or "a, b in EXPR", e.g. "svc in services" or "k, v in labels"`
		if strings.Contains(s, "${{") {
			msg += ", without ${{ }}"
		}
		return nil, cerr(sn, path, msg)
	}
	d := &forDir{key: key, doKey: doP.k, path: path, v1: s[m[2]:m[3]]}
	if m[4] >= 0 {
		d.v2 = s[m[4]:m[5]]
		if d.v2 == d.v1 {
			return nil, cerr(sn, path, "$for binds "+d.v1+" twice: use two different names")
		}
	}
	for _, v := range []string{d.v1, d.v2} {
		if v != "" && !lex.IsIdent(v) {
			return nil, cerr(sn, path, quote(v)+" is not a valid variable name")
		}
	}
	d.coll = newExprRef(exprRef{text: s[m[1]:], shown: s, off: m[1], node: sn, path: path, bare: "$for"})
	var err *compileError
	if d.body, err = c.node(do, path+".$do"); err != nil {
		return nil, err
	}
	d.bodySeq = deref(do).Kind == yaml.SequenceNode
	return d, nil
}

func (d *forDir) keyNode() *yaml.Node { return d.key }
func (d *forDir) name() string        { return "$for" }

// iterate evaluates the collection and calls fn with a scope holding the
// loop variables. unknown reports an unknown collection.
func (d *forDir) iterate(r *renderer, sc *scope, fr *frame, fn func(it *scope) error) (n int, unknown bool, err error) {
	coll, err := r.evalExpr(d.coll, sc, fr)
	if err != nil {
		return 0, false, err
	}
	if _, ok := coll.(*types.Unknown); ok {
		return 0, true, nil
	}
	it := newScopeCap(sc, 2)
	it.bind(d.v1, nil)
	if d.v2 != "" {
		it.bind(d.v2, nil)
	}
	// The loop variables are the bindings 0 and 1 of it. Entries of a map or
	// list from the template or the variables are bound as engine values.
	if m, ok := celenv.AsMap(coll); ok {
		n, err = d.overMap(r, fr, it, m, fn)
		return n, false, err
	}
	switch c := coll.(type) {
	case traits.Mapper:
		n, err = d.overMapper(r, fr, it, c, fn)
		return n, false, err
	case traits.Lister:
		n, err = d.overList(r, fr, it, c, fn)
		return n, false, err
	}
	return 0, false, &Error{Pos: Pos{File: fr.file, Line: d.coll.node.Line, Column: d.coll.node.Column}, Path: d.path,
		Msg: "$for can only iterate over a list or a map, got " + celenv.TypeName(coll), Expr: d.coll.shown, Offset: d.coll.off, Chain: fr.chain}
}

// overMap walks a map from the template or the variables: its keys in
// sorted order, without building an iterator.
func (d *forDir) overMap(r *renderer, fr *frame, it *scope, m *Map, fn func(it *scope) error) (int, error) {
	keys := m.Keys()
	order := emit.SortedOrder(keys)
	for n := range keys {
		i := n
		if order != nil {
			i = order[n]
		}
		if err := r.tick(fr, d.key, d.path); err != nil {
			return 0, err
		}
		it.setValue(0, keys[i])
		if d.v2 != "" {
			_, v := m.At(i)
			it.setValue(1, v)
		}
		if err := fn(it); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}

// overMapper walks a map that CEL built, in sorted key order.
func (d *forDir) overMapper(r *renderer, fr *frame, it *scope, m traits.Mapper, fn func(it *scope) error) (int, error) {
	keys := celenv.SortedKeys(m)
	for _, k := range keys {
		if err := r.tick(fr, d.key, d.path); err != nil {
			return 0, err
		}
		it.set(0, k)
		if d.v2 != "" {
			it.set(1, celenv.Element(m.Get(k)))
		}
		if err := fn(it); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}

// overList walks a list in order; a list from the template or the
// variables binds its elements as engine values.
func (d *forDir) overList(r *renderer, fr *frame, it *scope, l traits.Lister, fn func(it *scope) error) (int, error) {
	size, ok := l.Size().(types.Int)
	if !ok {
		return 0, r.errAt(fr, d.coll.node, d.path, "$for cannot tell the size of the list")
	}
	raw, isRaw := celenv.AsList(l)
	for i := types.Int(0); i < size; i++ {
		if err := r.tick(fr, d.key, d.path); err != nil {
			return 0, err
		}
		slot := 0 // the element's binding
		if d.v2 != "" {
			it.set(0, i)
			slot = 1
		}
		if isRaw {
			it.setValue(slot, raw[i])
		} else {
			it.set(slot, celenv.Element(l.Get(i)))
		}
		if err := fn(it); err != nil {
			return 0, err
		}
	}
	return int(size), nil
}

func (d *forDir) value(r *renderer, sc *scope, fr *frame) (Value, bool, error) {
	var out *Map
	unknownBody := false
	// A body that is only $key/$value sets its entry directly, without
	// building a one-entry mapping per iteration.
	var kv *kvDir
	if m, ok := d.body.(*mapNode); ok && m.replaces() && len(m.preludes) == 0 {
		kv, _ = m.prods[0].(*kvDir)
	}
	n, unknown, err := d.iterate(r, sc, fr, func(it *scope) error {
		if kv != nil {
			k, v, state, err := kv.entry(r, it, fr)
			if err != nil || state == kvNothing {
				return err
			}
			if state == kvUnknown {
				unknownBody = true
				return errUnknownShape
			}
			if out == nil {
				out = NewMap(4)
			}
			if out.Set(k, v) {
				return r.errAt(fr, d.key, d.path, forDupMsg(d, k))
			}
			return nil
		}
		v, ok, err := r.value(d.body, it, fr)
		if err != nil || !ok || v == nil {
			return err
		}
		switch v := v.(type) {
		case *Map:
			if out == nil {
				out = NewMap(v.Len())
			}
			for i := 0; i < v.Len(); i++ {
				k, x := v.At(i)
				if out.Set(k, x) {
					// Named only when the template writes it: reference §6.
					return r.errAt(fr, d.key, d.path, forDupMsg(d, k))
				}
			}
			return nil
		case Unknown:
			unknownBody = true
			return errUnknownShape
		}
		return r.errAt(fr, d.key, d.path, "in value position each iteration of $for must give a mapping (or nothing), got "+valueKind(v)+
			"; to build a list, write the $for as an item: `key: [ {$for: …, $do: …} ]`")
	})
	if unknown || unknownBody {
		return Unknown{}, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	if n == 0 {
		return nil, false, nil
	}
	if out == nil {
		out = NewMap(0)
	}
	if err := r.count(fr, d.key, d.path, 1, 2); err != nil {
		return nil, false, err
	}
	return out, true, nil
}

func (d *forDir) multi(r *renderer, sc *scope, fr *frame, pos position, dst []Value) ([]Value, error) {
	if d.bodySeq && pos == posStream {
		return dst, r.errAt(fr, d.doKey, d.path+".$do", "a $do body written as a sequence cannot stand at a document root: documents are not lists; give one mapping per document")
	}
	_, unknown, err := d.iterate(r, sc, fr, func(it *scope) error {
		var err error
		if d.bodySeq {
			dst, err = r.splice(d.body, d.doKey, d.path+".$do", it, fr, pos, dst)
		} else {
			dst, err = r.multi(d.body, it, fr, pos, dst)
		}
		return err
	})
	if unknown {
		return dst, errUnknownShape
	}
	return dst, err
}

// writesKey reports whether the body writes key k itself.
func (d *forDir) writesKey(k string) bool { return writesKey(d.body, k) }

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

func init() {
	register(directive{rank: 80, name: "$for", kind: dirProducer, needs: "$do",
		missing: "$for without $do: write the body to render for each element under $do",
		produce: func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError) {
			return c.forDir(p.k, p.v, d["$do"], joinPath(path, "$for"))
		}})
	register(directive{rank: 90, name: "$do", kind: dirPartner, needs: "$for", body: true})
}
