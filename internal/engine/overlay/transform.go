package overlay

import (
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/transform"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"go.yaml.in/yaml/v3"
)

// $transform makes a document a transform (reference §10): it gives no
// document of its own, and once the overlays have applied, it changes
// every document with kustomize's semantics (package transform). An
// overlay with $remove: true removes the documents it matches (reference
// §8). This file compiles both; transformapply.go applies the transforms,
// and package transform does the work.

// transformNode is a compiled transform document.
type transformNode struct {
	key  *yaml.Node    // the $transform key
	val  *yaml.Node    // its value in the template
	pre  *tree.MapNode // $schema, $let and $assert beside it; nil when none
	body tree.Node     // the value, rendered in value position
}

// besidePrelude reports whether directive k of the table c compiles with
// may stand beside $transform, and beside $overlay with $remove: true: a
// prelude or its partner.
func besidePrelude(c *tree.Compiler, k string) bool { return c.Table().StandsBesidePreludes(k) }

func compileTransform(c *tree.Compiler, n *yaml.Node, keys tree.MappingKeys) (tree.Node, *tree.CompileError) {
	p := keys.Dirs["$transform"]
	for _, q := range keys.Order() {
		if q.IsDirective() && (q.Key() == "$transform" || besidePrelude(c, q.Key())) {
			continue
		}
		return nil, tree.CompileErrorAt(q.K, q.Key(), "a transform document holds only $transform, with $let, $schema and $assert beside it; "+q.Key()+" cannot stand here: put it under $transform's fields or in a document of its own")
	}
	if err := checkTransformFields(tree.Deref(p.V)); err != nil {
		return nil, err
	}
	t := &transformNode{key: p.K, val: tree.Deref(p.V)}
	if rest := without(n, "$transform"); len(rest.Content) > 0 {
		pre, err := c.Compile(rest, "")
		if err != nil {
			return nil, err
		}
		t.pre, _ = pre.(*tree.MapNode)
	}
	body, err := c.Compile(p.V, "$transform")
	if err != nil {
		return nil, err
	}
	t.body = body
	return t, nil
}

// checkTransformFields finds an unknown field where the transform writes
// its fields literally, so that it is found before rendering (and by
// check); computed fields are checked once rendered.
func checkTransformFields(v *yaml.Node) *tree.CompileError {
	literal := func(n *yaml.Node, path string, list string) *tree.CompileError {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := tree.Deref(n.Content[i])
			if k.Kind != yaml.ScalarNode || tree.IsDirectiveLike(k.Value) || strings.HasPrefix(k.Value, "$$") {
				continue
			}
			if msg := transform.CheckFields(k.Value, list); msg != "" {
				return tree.CompileErrorAt(k, tree.JoinPath(path, k.Value), msg)
			}
		}
		return nil
	}
	if v.Kind != yaml.MappingNode {
		return nil
	}
	if err := literal(v, "$transform", ""); err != nil {
		return err
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k := tree.Deref(v.Content[i])
		if k.Value != "images" && k.Value != "keepNamespace" {
			continue
		}
		if seq := tree.Deref(v.Content[i+1]); seq.Kind == yaml.SequenceNode {
			for j, item := range seq.Content {
				if item = tree.Deref(item); item.Kind == yaml.MappingNode {
					if err := literal(item, "$transform."+k.Value+"["+tree.Itoa(j)+"]", k.Value); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// Value fails: a transform does not stand in value position.
func (t *transformNode) Value(r tree.Renderer, _ *scope.Scope, fr *diag.Frame) (value.Value, bool, error) {
	return nil, false, t.misplaced(r, fr)
}

// Multi queues the transform in the stream, after every overlay, and
// fails anywhere else.
func (t *transformNode) Multi(r tree.Renderer, sc *scope.Scope, fr *diag.Frame, pos tree.Position, dst []value.Value) ([]value.Value, error) {
	if pos != tree.PosStream {
		return dst, t.misplaced(r, fr)
	}
	r.AddLate(pendingTransform{t: t, sc: sc, fr: fr})
	return dst, nil
}

func (t *transformNode) misplaced(r tree.Reporter, fr *diag.Frame) error {
	return r.ErrAt(fr, t.key, "$transform", "a transform document stands only in the stream, where it changes the other documents; here a file of transforms is included into a value or a sequence: include it at a document root")
}

// removeOverlay finishes compiling overlay o, whose root n holds $remove:
// it removes what it matches and holds no patch.
func removeOverlay(c *tree.Compiler, o *overlayNode, n *yaml.Node, keys tree.MappingKeys) (tree.Node, *tree.CompileError) {
	p := keys.Dirs["$remove"]
	if b, ok := tree.BoolScalar(tree.Deref(p.V)); !ok || !b {
		return nil, tree.CompileErrorAt(tree.Deref(p.V), "$remove", "$remove at an overlay's root takes true: the documents the overlay matches are removed; to keep them, leave $remove out")
	}
	for _, q := range keys.Order() {
		switch {
		case q.IsDirective() && (besidePrelude(c, q.Key()) || q.Key() == "$overlay" || q.Key() == "$expects" || q.Key() == "$remove"):
		default:
			return nil, tree.CompileErrorAt(q.K, q.Key(), "an overlay with $remove: true removes the documents it matches and holds no patch: only $overlay, $expects, $let, $schema and $assert stand beside it; remove "+q.Key()+" or write the patch in an overlay of its own")
		}
	}
	o.remove = true
	if rest := without(n, "$overlay", "$expects", "$remove"); len(rest.Content) > 0 {
		body, err := c.Compile(rest, "")
		if err != nil {
			return nil, err
		}
		o.guard.body = body
	}
	return o, nil
}

// Transform gives the directive table's entries of
// $transform (reference §10).
func Transform() []tree.Directive {
	return []tree.Directive{
		{Name: "$transform", Kind: tree.KindOverlay, Only: tree.AtTransformRoot,
			Section:   10,
			Summary:   "Makes this document a transform: namespace (keepNamespace leaving some objects where they are), labels, selectorLabels, annotations and images applied to every document after the overlays, as kustomize does.",
			Misplaced: "$transform stands only at the root of a document: a transform is a document of its own, applied to the other documents once they are rendered",
			Overlay:   compileTransform},
	}
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
