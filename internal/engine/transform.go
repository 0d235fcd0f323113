package engine

import (
	"errors"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/transform"
	"go.yaml.in/yaml/v3"
)

// $transform makes a document a transform (reference §10): it gives no
// document of its own, and once the overlays have applied, it changes
// every document with kustomize's semantics (package transform). An
// overlay with $remove: true removes the documents it matches (reference
// §8). This file holds both: the documents and directives; package
// transform does the work.

// transformNode is a compiled transform document.
type transformNode struct {
	key  *yaml.Node // the $transform key
	val  *yaml.Node // its value in the template
	pre  *mapNode   // $schema, $let and $assert beside it; nil when none
	body tnode      // the value, rendered in value position
}

// pendingTransform is a transform reached in the stream, with the scope
// and file it stands in.
type pendingTransform struct {
	t  *transformNode
	sc *scope
	fr *frame
}

// isTransformRoot reports whether n, a document's root, is a transform.
func isTransformRoot(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := deref(n.Content[i]); k.Kind == yaml.ScalarNode && k.Value == "$transform" {
			return true
		}
	}
	return false
}

// besidePrelude are the directives that may stand beside $transform, and
// beside $overlay with $remove: true.
var besidePrelude = map[string]bool{"$let": true, "$schema": true, "$assert": true, "$msg": true}

func (c *compiler) transform(n *yaml.Node, keys mappingKeys) (tnode, *compileError) {
	p := keys.dirs["$transform"]
	for _, q := range keys.order {
		if q.dir && (q.key == "$transform" || besidePrelude[q.key]) {
			continue
		}
		return nil, cerr(q.k, q.key, "a transform document holds only $transform, with $let, $schema and $assert beside it; "+q.key+" cannot stand here: put it under $transform's fields or in a document of its own")
	}
	if err := checkTransformFields(deref(p.v)); err != nil {
		return nil, err
	}
	t := &transformNode{key: p.k, val: deref(p.v)}
	if rest := without(n, "$transform"); len(rest.Content) > 0 {
		pre, err := c.node(rest, "")
		if err != nil {
			return nil, err
		}
		t.pre, _ = pre.(*mapNode)
	}
	body, err := c.node(p.v, "$transform")
	if err != nil {
		return nil, err
	}
	t.body = body
	return t, nil
}

// checkTransformFields finds an unknown field where the transform writes
// its fields literally, so that it is found before rendering (and by
// check); computed fields are checked once rendered.
func checkTransformFields(v *yaml.Node) *compileError {
	literal := func(n *yaml.Node, path string, image bool) *compileError {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := deref(n.Content[i])
			if k.Kind != yaml.ScalarNode || isDirectiveLike(k.Value) || strings.HasPrefix(k.Value, "$$") {
				continue
			}
			if msg := transform.CheckFields(k.Value, image); msg != "" {
				return cerr(k, joinPath(path, k.Value), msg)
			}
		}
		return nil
	}
	if v.Kind != yaml.MappingNode {
		return nil
	}
	if err := literal(v, "$transform", false); err != nil {
		return err
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		if k := deref(v.Content[i]); k.Value != "images" {
			continue
		}
		if seq := deref(v.Content[i+1]); seq.Kind == yaml.SequenceNode {
			for j, item := range seq.Content {
				if item = deref(item); item.Kind == yaml.MappingNode {
					if err := literal(item, "$transform.images["+itoa(j)+"]", true); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

func (t *transformNode) misplaced(r *renderer, fr *frame) error {
	return r.errAt(fr, t.key, "$transform", "a transform document stands only in the stream, where it changes the other documents; here a file of transforms is included into a value or a sequence: include it at a document root")
}

// removeOverlay finishes compiling overlay o, whose root n holds $remove:
// it removes what it matches and holds no patch.
func (c *compiler) removeOverlay(o *overlayNode, n *yaml.Node, keys mappingKeys) (tnode, *compileError) {
	p := keys.dirs["$remove"]
	if b, ok := boolScalar(deref(p.v)); !ok || !b {
		return nil, cerr(deref(p.v), "$remove", "$remove at an overlay's root takes true: the documents the overlay matches are removed; to keep them, leave $remove out")
	}
	for _, q := range keys.order {
		switch {
		case q.dir && (besidePrelude[q.key] || q.key == "$overlay" || q.key == "$expects" || q.key == "$remove"):
		default:
			return nil, cerr(q.k, q.key, "an overlay with $remove: true removes the documents it matches and holds no patch: only $overlay, $expects, $let, $schema and $assert stand beside it; remove "+q.key+" or write the patch in an overlay of its own")
		}
	}
	o.remove = true
	if rest := without(n, "$overlay", "$expects", "$remove"); len(rest.Content) > 0 {
		body, err := c.node(rest, "")
		if err != nil {
			return nil, err
		}
		o.guard.body = body
	}
	return o, nil
}

// removeDocs drops the documents an overlay with $remove left nil, with
// their origins.
func (r *renderer) removeDocs(docs []Value) []Value {
	out := docs[:0]
	kept := r.kept[:0]
	for i, d := range docs {
		if d != nil {
			out = append(out, d)
			if len(r.kept) == len(docs) {
				kept = append(kept, r.kept[i])
			}
		}
	}
	if len(r.kept) == len(docs) {
		r.kept = kept
	}
	r.docCount = len(out)
	return out
}

// applyTransforms applies the transforms reached in the stream, in stream
// order, then the engine's Namespace option.
func (r *renderer) applyTransforms(docs []Value, fr *frame) ([]Value, error) {
	var written func(string) bool
	lazyWritten := func(s string) bool {
		if written == nil {
			written = r.written()
		}
		return written(s)
	}
	for _, p := range r.transforms {
		spec, err := r.transformSpec(p)
		if err != nil {
			return nil, err
		}
		prep := transform.Prepare(docs, spec, lazyWritten)
		for i, d := range docs {
			if err := r.step(p.fr, p.t.key, "$transform"); err != nil {
				return nil, err
			}
			out, err := prep.Doc(i, d)
			if err != nil {
				return nil, editingErr(p.t.docErr(r, p.fr, err), docs, i, r.written)
			}
			docs[i] = out
		}
	}
	if ns := r.e.opts.Namespace; ns != "" {
		prep := transform.Prepare(docs, transform.Spec{Namespace: ns}, lazyWritten)
		for i, d := range docs {
			if err := r.step(fr, nil, ""); err != nil {
				return nil, err
			}
			out, err := prep.Doc(i, d)
			if err != nil {
				e := r.errAt(fr, nil, "", "the namespace option (-n): "+transformMsg(err))
				return nil, editingErr(e, docs, i, r.written)
			}
			docs[i] = out
		}
	}
	return docs, nil
}

func transformMsg(err error) string {
	var te *transform.Error
	if errors.As(err, &te) {
		return te.Msg
	}
	return err.Error()
}

// transformSpec renders a transform's value and reads it.
func (r *renderer) transformSpec(p pendingTransform) (transform.Spec, error) {
	sc := p.sc
	if p.t.pre != nil {
		var unknown bool
		var err error
		if sc, unknown, err = r.prelude(p.t.pre, sc, p.fr); err != nil {
			return transform.Spec{}, err
		}
		if unknown {
			return transform.Spec{Unknown: true}, nil
		}
	}
	v, ok, err := r.value(p.t.body, sc, p.fr)
	if err != nil {
		return transform.Spec{}, err
	}
	if !ok {
		v = nil
	}
	spec, ferr := transform.Parse(v)
	if ferr != nil {
		path := "$transform"
		if s := transform.PathString(ferr.Path); s != "" {
			path += "." + s
		}
		return transform.Spec{}, r.errAt(p.fr, p.t.nodeAt(ferr.Path), path, ferr.Msg)
	}
	return spec, nil
}

// nodeAt is the node of the transform's template that path leads to, as
// far as the template writes it literally: the key of a field, the item
// of a sequence; the $transform key when the template computes it.
func (t *transformNode) nodeAt(path []any) *yaml.Node {
	at, n := t.key, t.val
	for _, step := range path {
		if n == nil {
			break
		}
		n = deref(n)
		switch s := step.(type) {
		case string:
			if n.Kind != yaml.MappingNode {
				return at
			}
			var next *yaml.Node
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := deref(n.Content[i]); k.Kind == yaml.ScalarNode && k.Value == s {
					at, next = k, n.Content[i+1]
					break
				}
			}
			n = next
		case int:
			if n.Kind != yaml.SequenceNode || s >= len(n.Content) {
				return at
			}
			n = n.Content[s]
			at = deref(n)
		}
	}
	return at
}

// docErr positions a document's error at the transform's field.
func (t *transformNode) docErr(r *renderer, fr *frame, err error) error {
	var te *transform.Error
	if !errors.As(err, &te) {
		return err
	}
	return r.errAt(fr, t.nodeAt([]any{te.Field}), "$transform."+te.Field, te.Msg)
}
