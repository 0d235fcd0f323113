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

// Producer is a directive that produces content.
type Producer interface {
	// KeyNode is the directive's key in the template.
	KeyNode() *yaml.Node
	// Name is the directive, e.g. "$if".
	Name() string
	// Value renders in value position: a value, or nothing (false).
	Value(r *Renderer, sc *Scope, fr *Frame) (Value, bool, error)
	// Multi renders in item or stream position, appending to dst.
	Multi(r *Renderer, sc *Scope, fr *Frame, pos Position, dst []Value) ([]Value, error)
}

// Prelude is what a prelude directive ($schema, $let, $assert) compiles
// to. run gives the scope the rest of the mapping renders in; unknown
// when it cannot be decided yet whether the mapping renders.
type Prelude interface {
	Run(r *Renderer, sc *Scope, fr *Frame) (next *Scope, unknown bool, err error)
}

// MapEntry is one key of a mapping, in template order: a regular key, or
// the place of a producer.
type MapEntry struct {
	name string     // output key of a regular entry
	key  *yaml.Node // the key in the template
	Val  Node       // value of a regular entry
	prod int        // index into mapNode.prods, or -1
}

type MapNode struct {
	n    *yaml.Node
	path string
	// Preludes are what $schema, $let and $assert compiled to, in
	// directive order; binds is set when one of them binds names ($let).
	Preludes []Prelude
	binds    bool
	Prods    []Producer // in directive order
	Entries  []MapEntry // in template order
	nRegular int
	// slip is a hint for the merge error when a regular key is spelt like
	// a missing directive of this mapping's producers (`else` for $else).
	slip string
}

// Replaces reports whether the single producer's result replaces the
// mapping.
func (m *MapNode) Replaces() bool { return len(m.Prods) == 1 && m.nRegular == 0 }

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

// KVPair is one key and value of a mapping being compiled.
type KVPair struct {
	K, V *yaml.Node
	key  string // the output key, or the directive
	dir  bool   // key is a directive
}

// MappingKeys are the keys of a mapping being compiled, sorted out.
type MappingKeys struct {
	regular []KVPair // regular keys, template order
	Dirs    DirSet   // directives by name
	order   []KVPair // every pair, template order
}

func (c *Compiler) mapping(n *yaml.Node, path string) (Node, *CompileError) {
	keys, err := ReadKeys(n, path, 0)
	if err != nil {
		return nil, err
	}
	if len(keys.Dirs) == 0 {
		return c.plainMapping(n, path, keys.regular)
	}
	if err := checkPartners(keys, path); err != nil {
		return nil, err
	}
	if err := checkBodies(keys, path); err != nil {
		return nil, err
	}
	m := &MapNode{n: n, path: path, slip: partnerSlip(keys)}
	prodIndex, err := c.directives(m, keys.Dirs, path)
	if err != nil {
		return nil, err
	}
	if err := c.entries(m, keys.order, prodIndex, path); err != nil {
		return nil, err
	}
	return m, nil
}

// ReadKeys reads the keys of mapping n: each is a regular key, a $$key
// written out with one $ less, or a directive of the table. A key written
// twice, an unknown directive, or one that cannot stand in this place (at
// is where n stands) is an error.
func ReadKeys(n *yaml.Node, path string, at Place) (MappingKeys, *CompileError) {
	keys := MappingKeys{Dirs: DirSet{}}
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key, kerr := yamlnode.Key(k)
		if kerr != nil {
			return keys, FromNodeError(kerr, path)
		}
		if prev, dup := seen[key]; dup {
			return keys, CompileErrorAt(k, JoinPath(path, key), yamlnode.DupKeyMsg(key, prev))
		}
		seen[key] = k
		p := KVPair{K: Deref(k), V: v, key: key}
		switch {
		case strings.HasPrefix(key, "$$"):
			p.key = key[1:]
			keys.regular = append(keys.regular, p)
		case isDirectiveLike(key):
			d, ok := lookupDirective(key)
			if !ok {
				return keys, CompileErrorAt(k, JoinPath(path, key), unknownDirectiveMsg(key))
			}
			if d.Only != 0 && d.Only&at == 0 {
				return keys, CompileErrorAt(k, JoinPath(path, key), d.Misplaced)
			}
			p.dir = true
			keys.Dirs[key] = p
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
func (k MappingKeys) hasBare(d string) bool {
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
func checkPartners(keys MappingKeys, path string) *CompileError {
	for _, kind := range []Kind{KindPartner, KindProducer} {
		for i := range directiveTable {
			d := &directiveTable[i]
			p, ok := keys.Dirs[d.Name]
			if !ok || d.Kind != kind || d.Needs == "" {
				continue
			}
			if _, ok := keys.Dirs[d.Needs]; ok {
				continue
			}
			msg := d.missingMsg()
			if keys.hasBare(d.Needs) {
				msg += "; the key " + d.Needs[1:] + " here has no $: write " + d.Needs
			}
			return CompileErrorAt(p.K, JoinPath(path, d.Name), msg)
		}
	}
	return nil
}

// checkBodies fails on a $then, $else or $do written with no value at
// all: `$then:` followed by a line that is not indented under it, which
// YAML reads as an empty value and the lines below as keys of the mapping
// itself. An explicit `$then: null` is allowed.
func checkBodies(keys MappingKeys, path string) *CompileError {
	for i := range directiveTable {
		d := &directiveTable[i]
		p, ok := keys.Dirs[d.Name]
		if !ok || !d.Body {
			continue
		}
		if v := p.V; v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" && v.Value == "" && v.Style&yaml.TaggedStyle == 0 {
			return CompileErrorAt(p.K, JoinPath(path, d.Name), d.Name+" has no value: the lines meant as its body are probably not indented under it; indent them, or write "+d.Name+": null for nothing")
		}
	}
	return nil
}

// partnerSlip is the hint for the merge error when a regular key is spelt
// like a missing partner of one of the mapping's producers (else for
// $else), or "".
func partnerSlip(keys MappingKeys) string {
	for i := range directiveTable {
		d := &directiveTable[i]
		if d.Kind != KindPartner {
			continue
		}
		owner, ok := lookupDirective(d.Needs)
		if !ok || owner.Kind != KindProducer {
			continue
		}
		if _, has := keys.Dirs[d.Needs]; !has || !keys.hasBare(d.Name) {
			continue
		}
		if _, has := keys.Dirs[d.Name]; !has {
			return "; the key " + d.Name[1:] + " here is a regular key: did you mean " + d.Name + "?"
		}
	}
	return ""
}

// directives compiles the mapping's preludes and producers in table order,
// and gives each producer's index in m.prods.
func (c *Compiler) directives(m *MapNode, dirs DirSet, path string) (map[string]int, *CompileError) {
	prodIndex := map[string]int{}
	for i := range directiveTable {
		d := &directiveTable[i]
		p, ok := dirs[d.Name]
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
func (c *Compiler) directive(m *MapNode, d *Directive, dirs DirSet, p KVPair, path string, prodIndex map[string]int) *CompileError {
	inPatch := c.Patch
	c.Patch = inPatch && d.Patchable
	defer func() { c.Patch = inPatch }()
	switch d.Kind {
	case KindPrelude:
		pr, err := d.Prelude(c, dirs, p, path)
		if err != nil {
			return err
		}
		if pr != nil {
			m.Preludes = append(m.Preludes, pr)
			m.binds = m.binds || d.Binds
		}
	case KindProducer:
		prod, err := d.Produce(c, dirs, p, path)
		if err != nil {
			return err
		}
		prodIndex[d.Name] = len(m.Prods)
		m.Prods = append(m.Prods, prod)
	}
	return nil
}

// entries lays out the mapping in template order: each regular key, and
// each producer where its key stands.
func (c *Compiler) entries(m *MapNode, order []KVPair, prodIndex map[string]int, path string) *CompileError {
	for _, p := range order {
		if p.dir {
			if i, ok := prodIndex[p.key]; ok {
				m.Entries = append(m.Entries, MapEntry{key: p.K, prod: i})
			}
			continue // a partner or a prelude directive
		}
		t, err := c.Compile(p.V, JoinPath(path, p.key))
		if err != nil {
			return err
		}
		m.Entries = append(m.Entries, MapEntry{name: p.key, key: p.K, Val: t, prod: -1})
		m.nRegular++
	}
	return nil
}

// plainMapping compiles a mapping without directives: a constant when all
// its values are constant.
func (c *Compiler) plainMapping(n *yaml.Node, path string, regular []KVPair) (Node, *CompileError) {
	m := &MapNode{n: n, path: path}
	consts := make([]*ConstNode, 0, len(regular))
	for _, p := range regular {
		t, err := c.Compile(p.V, JoinPath(path, p.key))
		if err != nil {
			return nil, err
		}
		if k, ok := t.(*ConstNode); ok {
			consts = append(consts, k)
		}
		m.Entries = append(m.Entries, MapEntry{name: p.key, key: p.K, Val: t, prod: -1})
		m.nRegular++
	}
	if len(consts) < len(m.Entries) {
		return m, nil
	}
	out := NewMap(len(m.Entries))
	cn := &ConstNode{n: n, path: path, nodes: 1, bytes: 2}
	for i, e := range m.Entries {
		k := consts[i]
		out.Set(e.name, k.Value)
		cn.nodes = addSat(cn.nodes, k.nodes+1)
		cn.bytes = addSat(cn.bytes, k.bytes+len(e.name)+3)
	}
	cn.Value = out
	return cn, nil
}

// RunPreludes runs $schema, $let and $assert. unknown is true when an $assert
// cannot be decided yet, which makes the whole mapping unknown.
func (r *Renderer) RunPreludes(m *MapNode, sc *Scope, fr *Frame) (*Scope, bool, error) {
	for _, p := range m.Preludes {
		next, unknown, err := p.Run(r, sc, fr)
		if err != nil || unknown {
			return nil, unknown, err
		}
		sc = next
	}
	return sc, false, nil
}

func (r *Renderer) mapValue(m *MapNode, sc *Scope, fr *Frame) (Value, bool, error) {
	sc, unknown, err := r.RunPreludes(m, sc, fr)
	if err != nil {
		return nil, false, err
	}
	if unknown {
		return Unknown{}, true, nil
	}
	if m.Replaces() {
		return m.Prods[0].Value(r, sc, fr)
	}
	return r.Merge(m, sc, fr)
}

func (r *Renderer) mapMulti(m *MapNode, sc *Scope, fr *Frame, pos Position, dst []Value) ([]Value, error) {
	sc, unknown, err := r.RunPreludes(m, sc, fr)
	if err != nil {
		return dst, err
	}
	if unknown {
		if m.Replaces() {
			return dst, ErrUnknownShape
		}
		return append(dst, Unknown{}), nil
	}
	if m.Replaces() {
		return m.Prods[0].Multi(r, sc, fr, pos, dst)
	}
	v, ok, err := r.Merge(m, sc, fr)
	return AppendIf(dst, v, ok, err)
}

// Merge builds the mapping from its producers and regular keys.
func (r *Renderer) Merge(m *MapNode, sc *Scope, fr *Frame) (Value, bool, error) {
	var small [4]*Map
	results := small[:0]
	if len(m.Prods) > len(small) {
		results = make([]*Map, 0, len(m.Prods))
	}
	for _, p := range m.Prods {
		v, ok, err := p.Value(r, sc, fr)
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
			return nil, false, r.ErrAt(fr, p.KeyNode(), JoinPath(m.path, p.Name()),
				"this mapping "+why+", so "+p.Name()+" must give a mapping to merge into it (or nothing), got "+ValueKind(v)+m.slip)
		}
	}
	size := m.nRegular
	for _, res := range results {
		size += res.Len()
	}
	out := NewMap(size)
	for ei, e := range m.Entries {
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
		v, ok, err := r.Value(e.Val, sc, fr)
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
	if err := r.Count(fr, m.n, m.path, 1, 2); err != nil {
		return nil, false, err
	}
	return out, true, nil
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
