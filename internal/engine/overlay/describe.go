package overlay

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// What each compiled overlay, transform and list edit holds, for the
// readers of a template that do not render it (tree.Described).

var (
	_ tree.Described = (*overlayNode)(nil)
	_ tree.Described = (*editOp)(nil)
	_ tree.Described = (*transformNode)(nil)
	_ tree.Holder    = (*editSeq)(nil)
)

// Describe gives the condition, the document it binds (doc) and the
// patch, with the preludes beside $overlay (reference §8).
func (o *overlayNode) Describe() tree.Description {
	return o.guard.describe("doc")
}

// describe describes a guarded mapping: its condition binds name.
func (g *guarded) describe(name string) tree.Description {
	d := tree.Description{Name: g.dir, Key: g.key, Binds: []tree.BoundName{{Name: name, Node: g.key}}}
	if g.cond != nil {
		d.Exprs = []*tree.ExprRef{g.cond}
	}
	if g.body != nil {
		d.Bodies = []tree.Body{{Node: g.body, Beside: true}}
	}
	return d
}

// Describe gives a $match's or a $remove's condition, the item it binds
// and its patch, or what $append appends (reference §8).
func (op *editOp) Describe() tree.Description {
	if op.guard.key == nil { // $append
		return tree.Description{Name: op.dir, Key: op.key, Bodies: []tree.Body{{Node: op.value}}}
	}
	return op.guard.describe("item")
}

// Parts are the list edits, in order.
func (s *editSeq) Parts() []tree.Node {
	out := make([]tree.Node, len(s.ops))
	for i, op := range s.ops {
		out[i] = op
	}
	return out
}

// Describe gives the preludes beside $transform, then its value
// (reference §10).
func (t *transformNode) Describe() tree.Description {
	d := tree.Description{Name: "$transform", Key: t.key}
	if t.pre != nil {
		d.Bodies = append(d.Bodies, tree.Body{Node: t.pre, Beside: true})
	}
	d.Bodies = append(d.Bodies, tree.Body{Node: t.body})
	return d
}
