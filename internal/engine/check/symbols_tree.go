package check

import (
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/schema"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// The symbols are read from the compiled tree, as the render reads it:
// the names come from what each compiled directive says it binds
// (tree.Description), its expressions and bodies from what it says it
// holds; the keys and scalars of plain data from the constants' YAML.
// Each mapping is read by the scoped walk check reads it by (scoped.go),
// which gives each place the names in scope there (reference §4); what an
// error excised, which the compiled tree does not hold, is read loosely,
// with the names of the mapping that held it.

// symReader reads the symbols of one file, document by document.
type symReader struct {
	t         *tree.Table
	e         symOptions
	s         *Symbols
	file, dir string
	// done are the YAML nodes read: a key or scalar recorded, a mapping
	// or sequence whose content is read.
	done map[*yaml.Node]bool
	// value and holder give a key's value and its mapping, key a
	// value's key, in the document as compiled.
	value, holder, key map[*yaml.Node]*yaml.Node
	// binds are the bindings of each directive, by its key, made once so
	// that a name met twice is one binding.
	binds map[*yaml.Node][]*Binding
	// included are the $include paths recorded.
	included map[*yaml.Node]bool
	cut      *cuts
}

// document reads one document, preamble the names of the preambles
// before it, and gives the names the documents after it see.
func (r *symReader) document(doc *yaml.Node, preamble []*Binding) []*Binding {
	n, cut := compileKept(r.t, doc)
	r.cut, r.done, r.binds, r.included = cut, map[*yaml.Node]bool{}, map[*yaml.Node][]*Binding{}, map[*yaml.Node]bool{}
	r.value, r.holder, r.key = map[*yaml.Node]*yaml.Node{}, map[*yaml.Node]*yaml.Node{}, map[*yaml.Node]*yaml.Node{}
	r.index(doc)
	if n == nil {
		r.loose(doc, preamble)
		return preamble
	}
	r.node(n, preamble, 0)
	for m, pairs := range r.cut.pairs { // excised from a mapping not compiled
		r.loosePairs(m, pairs, preamble)
	}
	for _, orig := range r.cut.nulls {
		r.loose(orig, preamble)
	}
	root, ok := n.(*tree.MapNode)
	if !ok || !tree.IsPreamble(root) {
		return preamble
	}
	return innerScope[*Binding](r.t, &symMapping{r: r}, newMapping(root), preamble)
}

// index records each key's value and mapping, not through aliases.
func (r *symReader) index(n *yaml.Node) {
	if n.Kind == yaml.AliasNode {
		return
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			r.value[n.Content[i]], r.holder[n.Content[i]] = n.Content[i+1], n
			r.key[n.Content[i+1]] = n.Content[i]
		}
	}
	for _, c := range n.Content {
		r.index(c)
	}
}

// maxSymbolDepth bounds how deep the symbols read the compiled tree; the
// compiler's own nesting limit is lower.
const maxSymbolDepth = 1000

// node reads the compiled node n with the names scope.
func (r *symReader) node(n tree.Node, scope []*Binding, depth int) {
	if n == nil || depth > maxSymbolDepth {
		return
	}
	switch n := n.(type) {
	case *tree.ConstNode:
		r.loose(n.Node, scope) // plain data
	case *tree.SeqNode:
		if r.done[n.Node] {
			return
		}
		r.done[n.Node] = true
		for _, e := range n.Elems {
			r.node(e, scope, depth+1)
		}
	case *tree.MapNode:
		r.mapping(n, scope, depth)
	case tree.Holder:
		for _, p := range n.Parts() {
			r.node(p, scope, depth+1)
		}
	case tree.Described:
		r.standalone(n, scope, depth)
	}
}

// mapping reads a compiled mapping: its directives' names are in scope in
// the whole of it.
func (r *symReader) mapping(m *tree.MapNode, scope []*Binding, depth int) {
	if r.done[m.Node] {
		return
	}
	r.done[m.Node] = true
	r.scoped(m.Node, newMapping(m), scope, depth)
}

// standalone reads a directive that is no mapping's prelude or producer:
// a document's overlay, transform or chart, a list edit. It is one
// mapping with what stands beside it (compiled.go).
func (r *symReader) standalone(d tree.Described, scope []*Binding, depth int) {
	mp := newMapping(d)
	m := r.holder[mp.dirs[0].Key]
	if m != nil {
		if r.done[m] {
			return
		}
		r.done[m] = true
	}
	r.scoped(m, mp, scope, depth)
}

// scoped reads mp, the compiled mapping of YAML mapping m (nil when not
// known), by the scoped walk (scoped.go): its keys, its directives and
// entries, and what the compiled tree left unread of it.
func (r *symReader) scoped(m *yaml.Node, mp *mapping, scope []*Binding, depth int) {
	v := &symMapping{r: r, depth: depth}
	inner := innerScope[*Binding](r.t, v, mp, scope)
	if m != nil {
		r.keys(m, inner)
	}
	walkScoped[*Binding](r.t, v, mp, scope, inner)
	if m != nil {
		r.rest(m, inner)
	}
}

// symMapping is the symbols' scoped visitor (scoped.go) of one mapping.
type symMapping struct {
	r     *symReader
	depth int
	// bodies are the bodies of the entries read, by their keys.
	bodies map[*yaml.Node]tree.Node
}

func (v *symMapping) bound(mp *mapping, i int) []*Binding {
	return v.r.bindings(mp.nodes[i], mp.dirs[i])
}

func (v *symMapping) extend(scope, bs []*Binding) []*Binding { return extend(scope, bs) }

func (v *symMapping) value(_ *mapping, e tree.MapEntry, inner []*Binding) {
	v.r.node(e.Val, inner, v.depth+1)
}

// directive reads what directive i of mp holds: its expressions and
// bodies with the mapping's names inner.
func (v *symMapping) directive(mp *mapping, i int, inner []*Binding) {
	r, desc := v.r, mp.dirs[i]
	d, _ := r.t.Lookup(desc.Name)
	for _, x := range desc.Exprs {
		r.record(x.Node, inner, r.whole(x.Node))
	}
	for _, b := range desc.Bodies {
		if b.Beside { // read as the mapping's own (compiled.go)
			continue
		}
		if b.Key != nil {
			r.record(b.Key, inner, false)
		}
		r.node(b.Node, inner, v.depth+1)
		if c, ok := b.Node.(*tree.ConstNode); ok && b.Key == nil && d.Includes {
			r.include(c.Node)
		}
	}
	if s, ok := mp.nodes[i].(interface{ Set() *schema.Set }); ok {
		for _, inc := range s.Set().Includes() {
			r.include(inc.At)
		}
	}
}

// whole reports whether n is the value, as written, of a directive whose
// value is an expression as a whole (tree.Directive.WholeExpr): the
// condition of an $if beside $chart as of one in a mapping.
func (r *symReader) whole(n *yaml.Node) bool {
	k, ok := r.key[n]
	if !ok || n.Kind != yaml.ScalarNode {
		return false
	}
	d, _ := r.t.Lookup(k.Value)
	return d.WholeExpr()
}

// entry reads entry j of directive i of mp, a $let, with the names
// scope; after the last, its expressions and what was excised of its
// entries, with the names of all of them.
func (v *symMapping) entry(mp *mapping, i, j int, scope []*Binding) {
	r, desc := v.r, mp.dirs[i]
	m := symDeref(r.value[desc.Key])
	if j == 0 {
		if m != nil {
			r.done[m] = true
		}
		v.bodies = map[*yaml.Node]tree.Node{}
		for _, b := range desc.Bodies {
			v.bodies[b.Key] = b.Node
		}
	}
	if j < len(desc.Binds) {
		b := desc.Binds[j]
		r.record(b.Node, scope, false)
		if val := r.value[b.Node]; val != nil && val.Kind == yaml.ScalarNode {
			r.record(val, scope, true)
		}
		r.node(v.bodies[b.Node], scope, v.depth+1)
		return
	}
	for _, x := range desc.Exprs {
		r.record(x.Node, scope, true)
	}
	if pairs, ok := r.cut.pairs[m]; ok { // entries that did not compile
		delete(r.cut.pairs, m)
		r.looseEntries(pairs, scope)
	}
}

// bindings are the names directive n, described by desc, binds in its
// mapping, as the directive table says (a $with's are the included
// file's), with what a $schema says of each variable.
func (r *symReader) bindings(n tree.Node, desc tree.Description) []*Binding {
	if bs, ok := r.binds[desc.Key]; ok {
		return bs
	}
	d, _ := r.t.Lookup(desc.Name)
	var bs []*Binding
	switch d.Bound {
	case tree.BindEntries, tree.BindFixed, tree.BindLoop:
		var vars []schema.Variable
		if s, ok := n.(interface{ Set() *schema.Set }); ok && d.Declares {
			vars = s.Set().Variables()
		}
		for _, b := range desc.Binds {
			bd := &Binding{Name: b.Name, Kind: d.BoundKind, Pos: r.pos(b.Node)}
			for _, v := range vars {
				if v.Key == b.Node {
					bd.Schema = r.schemaOf(v.Schema)
				}
			}
			bs = append(bs, bd)
		}
	}
	r.binds[desc.Key] = bs
	return bs
}

// extend gives scope with bs after it, leaving out those it holds.
func extend(scope, bs []*Binding) []*Binding {
	out := scope[:len(scope):len(scope)]
	for _, b := range bs {
		if !slices.Contains(scope, b) {
			out = append(out, b)
		}
	}
	return out
}

// keys records the keys of mapping m.
func (r *symReader) keys(m *yaml.Node, scope []*Binding) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		r.record(m.Content[i], scope, false)
	}
}

// rest reads what the compiled tree left unread of mapping m (a
// $schema's schemas, a condition given as a YAML bool), and what was
// excised from it, with the mapping's names.
func (r *symReader) rest(m *yaml.Node, scope []*Binding) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		r.loosePair(m.Content[i], m.Content[i+1], scope)
	}
	r.loosePairs(m, r.cut.pairs[m], scope)
}

// loosePairs reads the keys and values cut from mapping m.
func (r *symReader) loosePairs(m *yaml.Node, pairs []*yaml.Node, scope []*Binding) {
	delete(r.cut.pairs, m)
	for i := 0; i+1 < len(pairs); i += 2 {
		r.loosePair(pairs[i], pairs[i+1], scope)
	}
}

// loose reads YAML the compiled tree does not hold, or plain data: every
// key and scalar has the names scope, and a directive's value that is a
// whole expression, as the table says, is marked so.
func (r *symReader) loose(n *yaml.Node, scope []*Binding) {
	if n == nil || n.Kind == yaml.AliasNode {
		return
	}
	if orig, ok := r.cut.nulls[n]; ok { // the null an excision left
		delete(r.cut.nulls, n)
		r.done[n] = true
		r.loose(orig, scope)
		return
	}
	if n.Kind == yaml.ScalarNode {
		r.record(n, scope, false)
		return
	}
	if r.done[n] {
		return
	}
	r.done[n] = true
	if n.Kind != yaml.MappingNode {
		for _, c := range n.Content {
			r.loose(c, scope)
		}
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		r.loosePair(n.Content[i], n.Content[i+1], scope)
	}
	r.loosePairs(n, r.cut.pairs[n], scope)
}

// loosePair reads key k and value v of a mapping read loosely.
func (r *symReader) loosePair(k, v *yaml.Node, scope []*Binding) {
	r.record(k, scope, false)
	if v.Kind == yaml.AliasNode {
		return
	}
	d, _ := r.t.Lookup(k.Value)
	switch {
	case d.WholeExpr() && v.Kind == yaml.ScalarNode:
		r.record(v, scope, true)
	case d.Exprs == tree.ExprEntries && v.Kind == yaml.MappingNode && !r.done[v]:
		r.done[v] = true
		r.looseEntries(v.Content, scope)
		r.looseEntries(r.cut.pairs[v], scope)
		delete(r.cut.pairs, v)
	default:
		if d.Includes {
			r.include(v)
		}
		r.loose(v, scope)
	}
}

// looseEntries reads the keys and values of a $let's entries read
// loosely: a scalar value is an expression.
func (r *symReader) looseEntries(kv []*yaml.Node, scope []*Binding) {
	for i := 0; i+1 < len(kv); i += 2 {
		r.record(kv[i], scope, false)
		if e := kv[i+1]; e.Kind == yaml.ScalarNode {
			r.record(e, scope, true)
		} else {
			r.loose(e, scope)
		}
	}
}

// record records key or scalar n, once: the first reading is the one
// that knows most.
func (r *symReader) record(n *yaml.Node, scope []*Binding, expr bool) {
	if n == nil || r.done[n] {
		return
	}
	r.done[n] = true
	r.s.Scopes = append(r.s.Scopes, ScopeAt{Pos: r.pos(n), Names: scope[:len(scope):len(scope)], Expr: expr})
}

// include records a literal $include path, n its node.
func (r *symReader) include(n *yaml.Node) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag != "!!str" || n.Value == "" || strings.Contains(n.Value, "${{") || r.included[n] {
		return
	}
	r.included[n] = true
	p := n.Value
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.dir, p)
	}
	r.s.Includes = append(r.s.Includes, IncludeRef{Pos: r.pos(n), Path: n.Value, File: p})
}

func (r *symReader) pos(n *yaml.Node) diag.Pos {
	return diag.Pos{File: r.file, Line: n.Line, Column: n.Column}
}
