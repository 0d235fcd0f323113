package tree

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"go.yaml.in/yaml/v3"
)

// A mapping is where directives live. This file compiles a mapping into a
// MapNode (merge.go renders it): first the preludes (such as $let), then
// the producers (such as $if), each in the directive table's order, then
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
	Value(r ContentRenderer, sc *scope.Scope, fr *diag.Frame) (value.Value, bool, error)
	// Multi renders in item or stream position, appending to dst.
	Multi(r ContentRenderer, sc *scope.Scope, fr *diag.Frame, pos Position, dst []value.Value) ([]value.Value, error)
}

// Prelude is what a prelude directive (such as $let) compiles
// to. run gives the scope the rest of the mapping renders in; unknown
// when it cannot be decided yet whether the mapping renders.
type Prelude interface {
	Run(r PreludeRenderer, sc *scope.Scope, fr *diag.Frame) (next *scope.Scope, unknown bool, err error)
}

// MapEntry is one key of a mapping, in template order: a regular key, or
// the place of a producer.
type MapEntry struct {
	Name string     // output key of a regular entry
	Key  *yaml.Node // the key in the template
	Val  Node       // value of a regular entry
	Prod int        // index into MapNode.Prods, or -1
}

// MapNode is a compiled mapping with directives (or with values that are
// not all constant).
type MapNode struct {
	Node *yaml.Node
	Path string
	// Preludes are what $schema, $let and $assert compiled to, in
	// directive order; binds is set when one of them binds names ($let).
	Preludes []Prelude
	Binds    bool
	Prods    []Producer // in directive order
	Entries  []MapEntry // in template order
	NRegular int
	// Slip is a hint for the merge error when a regular key is spelt like
	// a missing directive of this mapping's producers (`else` for $else).
	Slip string
}

// Replaces reports whether the single producer's result replaces the
// mapping.
func (m *MapNode) Replaces() bool { return len(m.Prods) == 1 && m.NRegular == 0 }

func (c *Compiler) mapping(n *yaml.Node, path string) (Node, *CompileError) {
	keys, err := c.ReadKeys(n, path, 0)
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
	m := &MapNode{Node: n, Path: path, Slip: partnerSlip(keys)}
	prodIndex, err := c.directives(m, keys.Dirs, path)
	if err != nil {
		return nil, err
	}
	if err := c.entries(m, keys.order, prodIndex, path); err != nil {
		return nil, err
	}
	return m, nil
}

// directives compiles the mapping's preludes and producers in table order,
// and gives each producer's index in m.Prods.
func (c *Compiler) directives(m *MapNode, dirs DirSet, path string) (map[string]int, *CompileError) {
	prodIndex := map[string]int{}
	for i := range c.t.dirs {
		d := &c.t.dirs[i]
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
		if d.Prelude == nil {
			return nil // a prelude that does nothing
		}
		pr, err := d.Prelude(c, dirs, p, path)
		if err != nil {
			return err
		}
		if pr != nil {
			m.Preludes = append(m.Preludes, pr)
			m.Binds = m.Binds || d.Binds
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
				m.Entries = append(m.Entries, MapEntry{Key: p.K, Prod: i})
			}
			continue // a partner or a prelude directive
		}
		t, err := c.Compile(p.V, JoinPath(path, p.key))
		if err != nil {
			return err
		}
		m.Entries = append(m.Entries, MapEntry{Name: p.key, Key: p.K, Val: t, Prod: -1})
		m.NRegular++
	}
	return nil
}

// plainMapping compiles a mapping without directives: a constant when all
// its values are constant.
func (c *Compiler) plainMapping(n *yaml.Node, path string, regular []KVPair) (Node, *CompileError) {
	m := &MapNode{Node: n, Path: path}
	consts := make([]*ConstNode, 0, len(regular))
	for _, p := range regular {
		t, err := c.Compile(p.V, JoinPath(path, p.key))
		if err != nil {
			return nil, err
		}
		if k, ok := t.(*ConstNode); ok {
			consts = append(consts, k)
		}
		m.Entries = append(m.Entries, MapEntry{Name: p.key, Key: p.K, Val: t, Prod: -1})
		m.NRegular++
	}
	if len(consts) < len(m.Entries) {
		return m, nil
	}
	out := value.NewMap(len(m.Entries))
	cn := &ConstNode{Node: c.detached(n), Path: path, Nodes: 1, Bytes: 2}
	for i, e := range m.Entries {
		k := consts[i]
		out.Set(e.Name, k.Value)
		cn.Nodes = addSat(cn.Nodes, k.Nodes+1)
		cn.Bytes = addSat(cn.Bytes, k.Bytes+len(e.Name)+3)
	}
	cn.Value = out
	return cn, nil
}

// IsPreamble reports whether document root t is a preamble: a mapping with
// only $schema, $let and $assert, and at least $let.
func IsPreamble(t Node) bool {
	m, ok := t.(*MapNode)
	return ok && len(m.Prods) == 0 && m.NRegular == 0 && m.Binds
}
