package walk

import (
	"slices"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// A mapping is where directives live. This file compiles a mapping into a
// mapNode and renders it: first $schema, $let and $assert, then the
// producers ($if, $for, $eval, $key/$value, $include) in that order, then
// the regular keys. One producer and no regular keys: the producer's result
// replaces the mapping. Otherwise every producer must give a mapping (or
// nothing) and its entries merge where the producer's key stands.

// producer is a directive that produces content.
type producer interface {
	// keyNode is the directive's key in the template.
	keyNode() *yaml.Node
	// name is the directive, e.g. "$if".
	name() string
	// value renders in value position: a value, or nothing (false).
	value(r *renderer, sc *scope, fr *frame) (Value, bool, error)
	// multi renders in item or stream position, appending to dst.
	multi(r *renderer, sc *scope, fr *frame, pos position, dst []Value) ([]Value, error)
}

// prelude is what a prelude directive ($schema, $let, $assert) compiles
// to. run gives the scope the rest of the mapping renders in; unknown
// when it cannot be decided yet whether the mapping renders.
type prelude interface {
	run(r *renderer, sc *scope, fr *frame) (next *scope, unknown bool, err error)
}

// mapEntry is one key of a mapping, in template order: a regular key, or
// the place of a producer.
type mapEntry struct {
	name string     // output key of a regular entry
	key  *yaml.Node // the key in the template
	val  tnode      // value of a regular entry
	prod int        // index into mapNode.prods, or -1
}

type mapNode struct {
	n    *yaml.Node
	path string
	// preludes are what $schema, $let and $assert compiled to, in
	// directive order; binds is set when one of them binds names ($let).
	preludes []prelude
	binds    bool
	prods    []producer // in directive order
	entries  []mapEntry // in template order
	nRegular int
	// slip is a hint for the merge error when a regular key is spelt like
	// a missing directive of this mapping's producers (`else` for $else).
	slip string
}

// replaces reports whether the single producer's result replaces the
// mapping.
func (m *mapNode) replaces() bool { return len(m.prods) == 1 && m.nRegular == 0 }

// isDirectiveLike reports whether a key claims to be a directive: "$"
// followed by a letter or "_". Other keys, such as "${{ x }}" or "$", are
// plain data.
func isDirectiveLike(k string) bool {
	if len(k) < 2 || k[0] != '$' {
		return false
	}
	c := k[1]
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// kvPair is one key and value of a mapping being compiled.
type kvPair struct {
	k, v *yaml.Node
	key  string // the output key, or the directive
	dir  bool   // key is a directive
}

// mappingKeys are the keys of a mapping being compiled, sorted out.
type mappingKeys struct {
	regular []kvPair // regular keys, template order
	dirs    dirSet   // directives by name
	order   []kvPair // every pair, template order
}

func (c *compiler) mapping(n *yaml.Node, path string) (tnode, *compileError) {
	keys, err := readKeys(n, path, 0)
	if err != nil {
		return nil, err
	}
	if len(keys.dirs) == 0 {
		return c.plainMapping(n, path, keys.regular)
	}
	if err := checkPartners(keys, path); err != nil {
		return nil, err
	}
	if err := checkBodies(keys, path); err != nil {
		return nil, err
	}
	m := &mapNode{n: n, path: path, slip: partnerSlip(keys)}
	prodIndex, err := c.directives(m, keys.dirs, path)
	if err != nil {
		return nil, err
	}
	if err := c.entries(m, keys.order, prodIndex, path); err != nil {
		return nil, err
	}
	return m, nil
}

// readKeys reads the keys of mapping n: each is a regular key, a $$key
// written out with one $ less, or a directive of the table. A key written
// twice, an unknown directive, or one that cannot stand in this place (at
// is where n stands) is an error.
func readKeys(n *yaml.Node, path string, at dirPlace) (mappingKeys, *compileError) {
	keys := mappingKeys{dirs: dirSet{}}
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key, kerr := yamlnode.Key(k)
		if kerr != nil {
			return keys, fromNodeError(kerr, path)
		}
		if prev, dup := seen[key]; dup {
			return keys, cerr(k, joinPath(path, key), yamlnode.DupKeyMsg(key, prev))
		}
		seen[key] = k
		p := kvPair{k: deref(k), v: v, key: key}
		switch {
		case strings.HasPrefix(key, "$$"):
			p.key = key[1:]
			keys.regular = append(keys.regular, p)
		case isDirectiveLike(key):
			d, ok := lookupDirective(key)
			if !ok {
				return keys, cerr(k, joinPath(path, key), unknownDirectiveMsg(key))
			}
			if d.only != 0 && d.only&at == 0 {
				return keys, cerr(k, joinPath(path, key), d.misplaced)
			}
			p.dir = true
			keys.dirs[key] = p
		default:
			keys.regular = append(keys.regular, p)
		}
		keys.order = append(keys.order, p)
	}
	return keys, nil
}

// unknownDirectiveMsg is the error for a $-key that is no directive. It
// always says how to write the key as data, and names the directive that
// was probably meant only when the key is not a keyword of JSON Schema or
// OpenAPI, which is written as data far more often than misspelt.
func unknownDirectiveMsg(key string) string {
	msg := "unknown directive " + key
	asData := "write $" + key + " to output a key " + key
	if slices.Contains(schemaKeywords, key) {
		return msg + ": " + key + " is a JSON Schema keyword, not a directive: " + asData
	}
	if s := suggest(key); s != "" {
		return msg + ": did you mean " + s + "? To output a key " + key + " as data, write $" + key
	}
	return msg + ": keys that start with $ are directives; " + asData
}

// schemaKeywords are the $-keywords of JSON Schema (2020-12 and earlier
// drafts) and OpenAPI that templates emit as data.
var schemaKeywords = []string{
	"$ref", "$id", "$defs", "$comment", "$anchor", "$dynamicRef", "$dynamicAnchor",
	"$vocabulary", "$recursiveRef", "$recursiveAnchor",
}

// hasBare reports whether a regular key is spelt like directive d without
// its $, such as then for $then: a slip that would otherwise be data.
func (k mappingKeys) hasBare(d string) bool {
	for _, r := range k.regular {
		if r.key == d[1:] {
			return true
		}
	}
	return false
}

// checkPartners fails on a directive whose partner is missing: partners
// without their directive first ($then without $if), then directives
// without their partner ($if without $then), each in table order.
func checkPartners(keys mappingKeys, path string) *compileError {
	for _, kind := range []dirKind{dirPartner, dirProducer} {
		for i := range directiveTable {
			d := &directiveTable[i]
			p, ok := keys.dirs[d.name]
			if !ok || d.kind != kind || d.needs == "" {
				continue
			}
			if _, ok := keys.dirs[d.needs]; ok {
				continue
			}
			msg := d.missingMsg()
			if keys.hasBare(d.needs) {
				msg += "; the key " + d.needs[1:] + " here has no $: write " + d.needs
			}
			return cerr(p.k, joinPath(path, d.name), msg)
		}
	}
	return nil
}

// checkBodies fails on a $then, $else or $do written with no value at
// all: `$then:` followed by a line that is not indented under it, which
// YAML reads as an empty value and the lines below as keys of the mapping
// itself. An explicit `$then: null` is allowed.
func checkBodies(keys mappingKeys, path string) *compileError {
	for i := range directiveTable {
		d := &directiveTable[i]
		p, ok := keys.dirs[d.name]
		if !ok || !d.body {
			continue
		}
		if v := p.v; v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" && v.Value == "" && v.Style&yaml.TaggedStyle == 0 {
			return cerr(p.k, joinPath(path, d.name), d.name+" has no value: the lines meant as its body are probably not indented under it; indent them, or write "+d.name+": null for nothing")
		}
	}
	return nil
}

// partnerSlip is the hint for the merge error when a regular key is spelt
// like a missing partner of one of the mapping's producers (else for
// $else), or "".
func partnerSlip(keys mappingKeys) string {
	for i := range directiveTable {
		d := &directiveTable[i]
		if d.kind != dirPartner {
			continue
		}
		owner, ok := lookupDirective(d.needs)
		if !ok || owner.kind != dirProducer {
			continue
		}
		if _, has := keys.dirs[d.needs]; !has || !keys.hasBare(d.name) {
			continue
		}
		if _, has := keys.dirs[d.name]; !has {
			return "; the key " + d.name[1:] + " here is a regular key: did you mean " + d.name + "?"
		}
	}
	return ""
}

// directives compiles the mapping's preludes and producers in table order,
// and gives each producer's index in m.prods.
func (c *compiler) directives(m *mapNode, dirs dirSet, path string) (map[string]int, *compileError) {
	prodIndex := map[string]int{}
	for i := range directiveTable {
		d := &directiveTable[i]
		p, ok := dirs[d.name]
		if !ok {
			continue
		}
		if err := c.directive(m, d, dirs, p, path, prodIndex); err != nil {
			return nil, err
		}
	}
	return prodIndex, nil
}

// directive compiles one prelude or producer into m. Only a patchable
// producer's bodies stay part of an overlay's patch.
func (c *compiler) directive(m *mapNode, d *directive, dirs dirSet, p kvPair, path string, prodIndex map[string]int) *compileError {
	inPatch := c.patch
	c.patch = inPatch && d.patchable
	defer func() { c.patch = inPatch }()
	switch d.kind {
	case dirPrelude:
		pr, err := d.prelude(c, dirs, p, path)
		if err != nil {
			return err
		}
		if pr != nil {
			m.preludes = append(m.preludes, pr)
			m.binds = m.binds || d.binds
		}
	case dirProducer:
		prod, err := d.produce(c, dirs, p, path)
		if err != nil {
			return err
		}
		prodIndex[d.name] = len(m.prods)
		m.prods = append(m.prods, prod)
	}
	return nil
}

// entries lays out the mapping in template order: each regular key, and
// each producer where its key stands.
func (c *compiler) entries(m *mapNode, order []kvPair, prodIndex map[string]int, path string) *compileError {
	for _, p := range order {
		if p.dir {
			if i, ok := prodIndex[p.key]; ok {
				m.entries = append(m.entries, mapEntry{key: p.k, prod: i})
			}
			continue // a partner or a prelude directive
		}
		t, err := c.node(p.v, joinPath(path, p.key))
		if err != nil {
			return err
		}
		m.entries = append(m.entries, mapEntry{name: p.key, key: p.k, val: t, prod: -1})
		m.nRegular++
	}
	return nil
}

// plainMapping compiles a mapping without directives: a constant when all
// its values are constant.
func (c *compiler) plainMapping(n *yaml.Node, path string, regular []kvPair) (tnode, *compileError) {
	m := &mapNode{n: n, path: path}
	consts := make([]*constNode, 0, len(regular))
	for _, p := range regular {
		t, err := c.node(p.v, joinPath(path, p.key))
		if err != nil {
			return nil, err
		}
		if k, ok := t.(*constNode); ok {
			consts = append(consts, k)
		}
		m.entries = append(m.entries, mapEntry{name: p.key, key: p.k, val: t, prod: -1})
		m.nRegular++
	}
	if len(consts) < len(m.entries) {
		return m, nil
	}
	out := NewMap(len(m.entries))
	cn := &constNode{n: n, path: path, nodes: 1, bytes: 2}
	for i, e := range m.entries {
		k := consts[i]
		out.Set(e.name, k.v)
		cn.nodes = addSat(cn.nodes, k.nodes+1)
		cn.bytes = addSat(cn.bytes, k.bytes+len(e.name)+3)
	}
	cn.v = out
	return cn, nil
}

// prelude runs $schema, $let and $assert. unknown is true when an $assert
// cannot be decided yet, which makes the whole mapping unknown.
func (r *renderer) prelude(m *mapNode, sc *scope, fr *frame) (*scope, bool, error) {
	for _, p := range m.preludes {
		next, unknown, err := p.run(r, sc, fr)
		if err != nil || unknown {
			return nil, unknown, err
		}
		sc = next
	}
	return sc, false, nil
}

func (r *renderer) mapValue(m *mapNode, sc *scope, fr *frame) (Value, bool, error) {
	sc, unknown, err := r.prelude(m, sc, fr)
	if err != nil {
		return nil, false, err
	}
	if unknown {
		return Unknown{}, true, nil
	}
	if m.replaces() {
		return m.prods[0].value(r, sc, fr)
	}
	return r.merge(m, sc, fr)
}

func (r *renderer) mapMulti(m *mapNode, sc *scope, fr *frame, pos position, dst []Value) ([]Value, error) {
	sc, unknown, err := r.prelude(m, sc, fr)
	if err != nil {
		return dst, err
	}
	if unknown {
		if m.replaces() {
			return dst, errUnknownShape
		}
		return append(dst, Unknown{}), nil
	}
	if m.replaces() {
		return m.prods[0].multi(r, sc, fr, pos, dst)
	}
	v, ok, err := r.merge(m, sc, fr)
	return appendIf(dst, v, ok, err)
}

// merge builds the mapping from its producers and regular keys.
func (r *renderer) merge(m *mapNode, sc *scope, fr *frame) (Value, bool, error) {
	var small [4]*Map
	results := small[:0]
	if len(m.prods) > len(small) {
		results = make([]*Map, 0, len(m.prods))
	}
	for _, p := range m.prods {
		v, ok, err := p.value(r, sc, fr)
		if err != nil {
			return nil, false, err
		}
		if !ok || v == nil {
			results = append(results, nil)
			continue
		}
		switch v := v.(type) {
		case *Map:
			results = append(results, v)
		case Unknown:
			return Unknown{}, true, nil
		default:
			why := "has other keys"
			if m.nRegular == 0 {
				why = "has several producers"
			}
			return nil, false, r.errAt(fr, p.keyNode(), joinPath(m.path, p.name()),
				"this mapping "+why+", so "+p.name()+" must give a mapping to merge into it (or nothing), got "+valueKind(v)+m.slip)
		}
	}
	size := m.nRegular
	for _, res := range results {
		size += res.Len()
	}
	out := NewMap(size)
	for ei, e := range m.entries {
		if e.prod >= 0 {
			res := results[e.prod]
			for i := 0; i < res.Len(); i++ {
				k, v := res.At(i)
				if out.Set(k, v) {
					return nil, false, r.dupErr(m, results, ei, k, fr)
				}
			}
			continue
		}
		v, ok, err := r.value(e.val, sc, fr)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			continue
		}
		if out.Set(e.name, v) {
			return nil, false, r.dupErr(m, results, ei, e.name, fr)
		}
	}
	if err := r.count(fr, m.n, m.path, 1, 2); err != nil {
		return nil, false, err
	}
	return out, true, nil
}

// entryWrites reports whether entry e is a place where the template
// writes key k itself (see writesKey).
func (m *mapNode) entryWrites(e mapEntry, k string) bool {
	return e.prod < 0 || producerWritesKey(m.prods[e.prod], k)
}

// dupErr reports key k, given again by entry ei, naming the entry that gave
// it first. The key is printed only when one of the two places writes it
// in the template: a produced key may hold a variable's value.
func (r *renderer) dupErr(m *mapNode, results []*Map, ei int, k string, fr *frame) error {
	where := func(e mapEntry) string {
		if e.prod >= 0 {
			return origin(m.prods[e.prod].name(), e.key)
		}
		return origin("", e.key)
	}
	var first mapEntry
	for _, e := range m.entries[:ei+1] {
		if (e.prod >= 0 && results[e.prod].Has(k)) || (e.prod < 0 && e.name == k) {
			first = e
			break
		}
	}
	e := m.entries[ei]
	if m.entryWrites(first, k) || m.entryWrites(e, k) {
		return r.errAt(fr, e.key, joinPath(m.path, k), "duplicate key "+quote(k)+": "+where(first)+", and again "+where(e))
	}
	return r.errAt(fr, e.key, m.path, "duplicate key: "+where(first)+", and again "+where(e)+" (the key is not shown, as it may hold a variable's value)")
}
