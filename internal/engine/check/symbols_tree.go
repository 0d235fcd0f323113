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
// Scopes follow reference §4: a mapping's directives bind their names in
// the whole mapping, in key order; a $let entry sees the names the
// mapping's other directives bind and the entries before it.

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
	cut      cuts
}

// part is a compiled directive and what it says it holds.
type part struct {
	n    tree.Node
	desc tree.Description
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
	for _, p := range r.parts(root) {
		if d, _ := r.t.Lookup(p.desc.Name); d.Kind == tree.KindPrelude {
			preamble = extend(preamble, r.bindings(p))
		}
	}
	return preamble
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
		r.standalone(part{n: n, desc: n.Describe()}, scope, depth)
	}
}

// mapping reads a compiled mapping: its directives' names are in scope in
// the whole of it.
func (r *symReader) mapping(m *tree.MapNode, scope []*Binding, depth int) {
	if r.done[m.Node] {
		return
	}
	r.done[m.Node] = true
	ps := r.parts(m)
	inner := scope
	for _, p := range ps {
		inner = extend(inner, r.bindings(p))
	}
	r.keys(m.Node, inner)
	for _, p := range ps {
		r.directive(p, ps, scope, inner, depth)
	}
	for _, e := range m.Entries {
		if e.Prod < 0 {
			r.node(e.Val, inner, depth+1)
		}
	}
	r.rest(m.Node, inner)
}

// standalone reads a directive that is no mapping's prelude or producer:
// a document's overlay, transform or chart, a list edit. The mapping it
// stands in sees its names and those of the preludes beside it.
func (r *symReader) standalone(p part, scope []*Binding, depth int) {
	m := r.holder[p.desc.Key]
	if m != nil {
		if r.done[m] {
			return
		}
		r.done[m] = true
	}
	own := extend(scope, r.bindings(p))
	inner, beside := own, map[tree.Node]bool{}
	for _, b := range p.desc.Bodies {
		if bm, ok := b.Node.(*tree.MapNode); ok {
			for _, bp := range r.parts(bm) {
				if d, _ := r.t.Lookup(bp.desc.Name); d.Kind == tree.KindPrelude {
					inner = extend(inner, r.bindings(bp))
					beside[bm] = true
				}
			}
		}
	}
	if m != nil {
		r.keys(m, inner)
	}
	for _, x := range p.desc.Exprs {
		r.record(x.Node, inner, r.whole(x.Node))
	}
	for _, b := range p.desc.Bodies {
		// The preludes beside the directive bind their names as a
		// mapping's do: each $let entry sees the entries before it.
		if beside[b.Node] {
			r.node(b.Node, own, depth+1)
		}
	}
	r.directive(p, []part{p}, scope, inner, depth)
	if m != nil {
		r.rest(m, inner)
	}
}

// parts are the described preludes and producers of m, in key order.
func (r *symReader) parts(m *tree.MapNode) []part {
	ps := make([]part, 0, len(m.Preludes)+len(m.Prods))
	add := func(n any) {
		if d, ok := n.(tree.Described); ok {
			ps = append(ps, part{n: d, desc: d.Describe()})
		}
	}
	for _, p := range m.Preludes {
		add(p)
	}
	for _, p := range m.Prods {
		add(p)
	}
	slices.SortStableFunc(ps, func(a, b part) int { return posCompare(a.desc.Key, b.desc.Key) })
	return ps
}

// posCompare orders two keys by their place in the template, a missing
// one first.
func posCompare(a, b *yaml.Node) int {
	if a == nil || b == nil {
		return boolInt(b == nil) - boolInt(a == nil)
	}
	if a.Line != b.Line {
		return a.Line - b.Line
	}
	return a.Column - b.Column
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// directive reads what directive p holds: its expressions and bodies in
// the mapping's scope inner, or its entries one by one when they bind in
// order, each seeing the names of others, those of the mapping's other
// directives, and the entries before it (reference §4 $let).
func (r *symReader) directive(p part, ps []part, before, inner []*Binding, depth int) {
	d, _ := r.t.Lookup(p.desc.Name)
	if d.Exprs == tree.ExprEntries {
		sc := before
		for _, o := range ps {
			if o.desc.Key != p.desc.Key {
				sc = extend(sc, r.bindings(o))
			}
		}
		r.entries(p, sc, depth)
		return
	}
	for _, x := range p.desc.Exprs {
		r.record(x.Node, inner, r.whole(x.Node))
	}
	for _, b := range p.desc.Bodies {
		if b.Key != nil {
			r.record(b.Key, inner, false)
		}
		r.node(b.Node, inner, depth+1)
		if c, ok := b.Node.(*tree.ConstNode); ok && b.Key == nil && d.Includes {
			r.include(c.Node)
		}
	}
	if s, ok := p.n.(interface{ Set() *schema.Set }); ok {
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

// entries reads the entries of p, a $let, in order, starting from scope.
func (r *symReader) entries(p part, scope []*Binding, depth int) {
	m := symDeref(r.value[p.desc.Key])
	if m != nil {
		r.done[m] = true
	}
	bodies := map[*yaml.Node]tree.Node{}
	for _, b := range p.desc.Bodies {
		bodies[b.Key] = b.Node
	}
	bs := r.bindings(p)
	for i, b := range p.desc.Binds {
		r.record(b.Node, scope, false)
		if v := r.value[b.Node]; v != nil && v.Kind == yaml.ScalarNode {
			r.record(v, scope, true)
		}
		r.node(bodies[b.Node], scope, depth+1)
		if i < len(bs) {
			scope = extend(scope, bs[i:i+1])
		}
	}
	for _, x := range p.desc.Exprs {
		r.record(x.Node, scope, true)
	}
	if pairs, ok := r.cut.pairs[m]; ok { // entries that did not compile
		delete(r.cut.pairs, m)
		r.looseEntries(pairs, scope)
	}
}

// bindings are the names p binds in its mapping, as the directive table
// says (a $with's are the included file's), with what a $schema says of
// each variable.
func (r *symReader) bindings(p part) []*Binding {
	if bs, ok := r.binds[p.desc.Key]; ok {
		return bs
	}
	d, _ := r.t.Lookup(p.desc.Name)
	var bs []*Binding
	switch d.Bound {
	case tree.BindEntries, tree.BindFixed, tree.BindLoop:
		var vars []schema.Variable
		if s, ok := p.n.(interface{ Set() *schema.Set }); ok && d.Declares {
			vars = s.Set().Variables()
		}
		for _, b := range p.desc.Binds {
			bd := &Binding{Name: b.Name, Kind: d.BoundKind, Pos: r.pos(b.Node)}
			for _, v := range vars {
				if v.Key == b.Node {
					bd.Schema = r.schemaOf(v.Schema)
				}
			}
			bs = append(bs, bd)
		}
	}
	r.binds[p.desc.Key] = bs
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
