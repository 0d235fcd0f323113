package tree

import "go.yaml.in/yaml/v3"

// Reading a compiled template without rendering it: what each compiled
// directive holds (its key, its CEL expressions, the names it binds, its
// bodies), as the readers that do not render a template (check, its type
// checker, the language server's symbols) need it, from the same tree the
// render walks. The directive table says what a directive holds in
// general (Directive.Exprs, Bound, ...); a compiled directive says what
// this one holds.

// Described is a compiled directive that says what it holds: every
// producer, every prelude and every document or edit list a package
// beside the walker compiles.
type Described interface {
	Describe() Description
}

// Holder is a compiled node that is no directive but holds some: an
// edit list of an overlay's patch, whose items are list edits.
type Holder interface {
	Parts() []Node
}

// Description is what one compiled directive holds.
type Description struct {
	// Name is the directive ("$for"); Key its key in the template.
	Name string
	Key  *yaml.Node
	// Exprs are its CEL expressions, in template order, each with its
	// text and where it is written.
	Exprs []*ExprRef
	// Binds are the names it binds, in template order.
	Binds []BoundName
	// Bodies are its compiled bodies, in template order.
	Bodies []Body
}

// BoundName is a name a directive binds, and the node that binds it: the
// key of a $let entry, the $for expression, an overlay's key.
type BoundName struct {
	Name string
	Node *yaml.Node
	// Value is where the schema of a $schema entry is written, when the
	// compiler kept the YAML (Compiler.KeepYAML); nil otherwise.
	Value *yaml.Node
}

// Body is a compiled body of a directive, with the key it stands under
// ($then, $do, a $let or $with entry's name): nil for a value written
// under the directive's own key. Name is what that key says: the partner
// directive ("$then") or the entry's name.
type Body struct {
	Key  *yaml.Node
	Name string
	Node Node
	// Beside marks the body that holds what stands beside the directive
	// in its own mapping (the preludes beside $chart or $transform, the
	// rest of an overlay's root or of a list edit's item): one mapping
	// with the directive, whose names are in scope in all of it.
	Beside bool
}

// Visit calls fn with n and, as long as fn returns true for a node, with
// the nodes below it: a sequence's items, a mapping's preludes, then its
// producers, then its regular values, a holder's parts, a described
// directive's bodies.
// A node an alias shares is visited once. nil nodes are skipped.
func Visit(n Node, fn func(Node) bool) {
	v := visitor{fn: fn, seen: map[any]bool{}}
	v.visit(n, 0)
}

// maxVisitDepth bounds Visit's recursion; the compiler's own nesting
// limit is lower.
const maxVisitDepth = 100000

type visitor struct {
	fn   func(Node) bool
	seen map[any]bool
}

func (v *visitor) visit(n Node, depth int) {
	if n == nil || depth > maxVisitDepth {
		return
	}
	switch n.(type) {
	case *MapNode, *SeqNode:
		if v.seen[n] {
			return
		}
		v.seen[n] = true
	}
	if !v.fn(n) {
		return
	}
	for _, c := range Children(n) {
		v.visit(c, depth+1)
	}
}

// Children gives the compiled nodes directly below n, in Visit's order.
func Children(n Node) []Node {
	switch t := n.(type) {
	case *SeqNode:
		return t.Elems
	case *MapNode:
		out := make([]Node, 0, len(t.Preludes)+len(t.Prods)+t.NRegular)
		for _, p := range t.Preludes {
			out = append(out, p)
		}
		for _, p := range t.Prods {
			out = append(out, p)
		}
		for _, e := range t.Entries {
			if e.Prod < 0 {
				out = append(out, e.Val)
			}
		}
		return out
	case Holder:
		return t.Parts()
	case Described:
		d := t.Describe()
		out := make([]Node, 0, len(d.Bodies))
		for _, b := range d.Bodies {
			out = append(out, b.Node)
		}
		return out
	}
	return nil
}

// Expressions gives every CEL expression of the compiled tree below n, in
// Visit's order.
func Expressions(n Node) []*ExprRef {
	var out []*ExprRef
	Visit(n, func(c Node) bool {
		if d, ok := c.(Described); ok {
			out = append(out, d.Describe().Exprs...)
		}
		return true
	})
	return out
}
