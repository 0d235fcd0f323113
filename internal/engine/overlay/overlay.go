package overlay

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// $overlay makes a document an overlay (reference §8): it gives no document
// of its own, and once every other document of the render is produced, it
// edits those for which its condition holds (apply.go), by the merge rule
// of §9 with list edits (listedit.go, editapply.go). Overlays apply one
// after another in stream order. $expects says how many documents must
// match (expects.go).

// overlayNode is a compiled overlay document.
type overlayNode struct {
	n      *yaml.Node // the root mapping
	guard  guarded
	expect expectation
	edits  bool // the patch holds list edits somewhere
	remove bool // $remove: true, the matches are removed (transform.go)
}

// guarded is a condition with the mapping it guards: an overlay's root or a
// $match item. The mapping's $schema, $let and $assert run first, then the
// condition, then the rest of the mapping renders as the patch.
type guarded struct {
	dir       string     // "$overlay" or "$match"
	key       *yaml.Node // the directive's key
	cond      *tree.ExprRef
	constCond *bool     // a YAML bool written as the condition
	body      tree.Node // the mapping without the directive and $expects; nil when that is empty
	// static marks a body of plain data and list edits only: it renders
	// to the same patch for every target, since its list edits read doc
	// and item only when they run, from the scope the caller reuses.
	static bool
}

// isStatic reports whether t is plain data and list edits only.
func isStatic(t tree.Node) bool {
	switch t := t.(type) {
	case nil, *tree.ConstNode:
		return true
	case *editSeq:
		return true
	case *tree.MapNode:
		if len(t.Prods) > 0 || len(t.Preludes) > 0 {
			return false
		}
		for _, e := range t.Entries {
			if !isStatic(e.Val) {
				return false
			}
		}
		return true
	}
	return false
}

func overlay(c *tree.Compiler, n *yaml.Node, keys tree.MappingKeys) (tree.Node, *tree.CompileError) {
	p := keys.Dirs["$overlay"]
	o := &overlayNode{n: n}
	var err *tree.CompileError
	if o.guard, err = guard(p, "$overlay", "$overlay"); err != nil {
		return nil, err
	}
	if o.expect, err = compileExpects(keys.Dirs, "$overlay"); err != nil {
		return nil, err
	}
	if _, ok := keys.Dirs["$remove"]; ok {
		return removeOverlay(c, o, n, keys)
	}
	c.Patch = true
	defer func() { c.Patch = false }()
	edits := c.Edits
	if rest := without(n, "$overlay", "$expects"); len(rest.Content) > 0 {
		if o.guard.body, err = c.Compile(rest, ""); err != nil {
			return nil, err
		}
	}
	o.guard.static = isStatic(o.guard.body)
	o.edits = c.Edits > edits
	return o, nil
}

// guard compiles the condition of directive p (dir) at path.
func guard(p tree.KVPair, path, dir string) (guarded, *tree.CompileError) {
	g := guarded{dir: dir, key: p.K}
	cn := tree.Deref(p.V)
	if s, ok := tree.StringScalar(cn); ok {
		g.cond = tree.NewExprRef(tree.ExprRef{Text: s, Shown: s, Node: cn, Path: path, Bare: dir})
		return g, nil
	}
	if b, ok := tree.BoolScalar(cn); ok {
		g.constCond = &b
		return g, nil
	}
	return g, tree.CompileErrorAt(cn, path, dir+" takes a CEL expression string that gives a bool, got "+yamlnode.AKind(cn))
}

// without is mapping n without the given keys.
func without(n *yaml.Node, keys ...string) *yaml.Node {
	out := *n
	out.Content = make([]*yaml.Node, 0, len(n.Content))
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := tree.Deref(n.Content[i])
		drop := false
		for _, d := range keys {
			drop = drop || (k.Kind == yaml.ScalarNode && k.Value == d)
		}
		if !drop {
			out.Content = append(out.Content, n.Content[i], n.Content[i+1])
		}
	}
	return &out
}

// Value fails: an overlay does not stand in value position.
func (o *overlayNode) Value(r tree.Renderer, _ *scope.Scope, fr *diag.Frame) (value.Value, bool, error) {
	return nil, false, o.misplaced(r, fr)
}

// Multi queues the overlay in the stream, and fails anywhere else.
func (o *overlayNode) Multi(r tree.Renderer, sc *scope.Scope, fr *diag.Frame, pos tree.Position, dst []value.Value) ([]value.Value, error) {
	if pos != tree.PosStream {
		return dst, o.misplaced(r, fr)
	}
	r.AddPending(pendingOverlay{o: o, sc: sc, fr: fr})
	return dst, nil
}

func (o *overlayNode) misplaced(r tree.Reporter, fr *diag.Frame) error {
	return r.ErrAt(fr, o.guard.key, "$overlay", "an overlay document stands only in the stream, where it edits the other documents; here a file of overlays is included into a value or a sequence: include it at a document root")
}

// Overlay gives the directive table's entries of
// $overlay and its partner $expects (reference §8).
func Overlay() []tree.Directive {
	return []tree.Directive{
		{Name: "$overlay", Kind: tree.KindOverlay, Only: tree.AtOverlayRoot,
			Exprs: tree.ExprBare, Bound: tree.BindFixed, BoundNames: []string{"doc"}, BoundKind: "overlay", Section: 8,
			Summary:   "Makes this document an overlay: a bare CEL expression, doc bound to each rendered document, that decides which documents the rest of the mapping is merged into.",
			Misplaced: "$overlay stands only at the root of a document: an overlay is a document of its own, applied to the other documents once they are rendered",
			Overlay: func(c *tree.Compiler, n *yaml.Node, keys tree.MappingKeys) (tree.Node, *tree.CompileError) {
				return overlay(c, n, keys)
			}},
		{Name: "$expects", Kind: tree.KindPartner, Only: tree.AtOverlayRoot | tree.AtEditItem,
			Exprs: tree.ExprCount, Section: 8,
			Summary:   "How many documents (beside $overlay) or items (beside $match or $remove) must match: an int, or \"N+\" for at least N.",
			Misplaced: "unknown directive $expects: $expects is a directive only beside $overlay, $match or $remove in an overlay; to output a key $expects as data, write $$expects"},
	}
}

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
