package overlay

import (
	"errors"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/transform"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"go.yaml.in/yaml/v3"
)

// Applying the transforms once the overlays have: each transform reached
// in the stream, in stream order, then the engine's Namespace option
// (the command line's -n).

// pendingTransform is a transform reached in the stream, with the scope
// and file it stands in.
type pendingTransform struct {
	t  *transformNode
	sc *scope.Scope
	fr *diag.Frame
}

// lazyWritten is r.Written, built on its first use.
func lazyWritten(r tree.Inputs) func(string) bool {
	var written func(string) bool
	return func(s string) bool {
		if written == nil {
			written = r.Written()
		}
		return written(s)
	}
}

// Apply changes every document by the transform.
func (p pendingTransform) Apply(r tree.Renderer, docs []value.Value) ([]value.Value, error) {
	spec, err := transformSpec(r, p)
	if err != nil {
		return nil, err
	}
	spec.Scopes = r.Options().Scopes
	spec.HideNames = r.Options().HideKeys
	prep := transform.Prepare(docs, spec, lazyWritten(r))
	for i, d := range docs {
		if err := r.Step(p.fr, p.t.key, "$transform"); err != nil {
			return nil, err
		}
		out, err := prep.Doc(i, d)
		if err != nil {
			return nil, editingErr(p.t.docErr(r, p.fr, err), docs, i, r)
		}
		docs[i] = out
	}
	if ferr := prep.Unmatched(); ferr != nil {
		return nil, r.ErrAt(p.fr, p.t.nodeAt(ferr.Path), "$transform."+transform.PathString(ferr.Path), ferr.Msg)
	}
	return docs, nil
}

// ApplyNamespace applies the engine's Namespace option ns, after the
// template's own transforms; fr is the file rendered.
func ApplyNamespace(r tree.Renderer, docs []value.Value, fr *diag.Frame, ns string) ([]value.Value, error) {
	opts := r.Options()
	prep := transform.Prepare(docs, transform.Spec{Namespace: ns, Keep: opts.KeepNamespace, Scopes: opts.Scopes, HideNames: opts.HideKeys}, lazyWritten(r))
	for i, d := range docs {
		if err := r.Step(fr, nil, ""); err != nil {
			return nil, err
		}
		out, err := prep.Doc(i, d)
		if err != nil {
			msg := strings.Replace(transformMsg(err), "with keepNamespace", "with --keep-namespace KIND/NAME", 1)
			e := r.ErrAt(fr, nil, "", "the namespace option (-n): "+msg)
			return nil, editingErr(e, docs, i, r)
		}
		docs[i] = out
	}
	if ferr := prep.Unmatched(); ferr != nil {
		entry := ""
		if i, ok := ferr.Path[1].(int); ok && i >= 0 && i < len(opts.KeepNamespace) {
			entry = opts.KeepNamespace[i].String() + ": "
		}
		return nil, r.ErrAt(fr, nil, "", "the namespace option (-n): --keep-namespace "+entry+ferr.Msg)
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
func transformSpec(r tree.Renderer, p pendingTransform) (transform.Spec, error) {
	sc := p.sc
	if p.t.pre != nil {
		var unknown bool
		var err error
		if sc, unknown, err = r.RunPreludes(p.t.pre, sc, p.fr); err != nil {
			return transform.Spec{}, err
		}
		if unknown {
			return transform.Spec{Unknown: true}, nil
		}
	}
	v, ok, err := r.Value(p.t.body, sc, p.fr)
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
		return transform.Spec{}, r.ErrAt(p.fr, p.t.nodeAt(ferr.Path), path, ferr.Msg)
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
		n = tree.Deref(n)
		switch s := step.(type) {
		case string:
			if n.Kind != yaml.MappingNode {
				return at
			}
			var next *yaml.Node
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := tree.Deref(n.Content[i]); k.Kind == yaml.ScalarNode && k.Value == s {
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
			at = tree.Deref(n)
		}
	}
	return at
}

// docErr positions a document's error at the transform's field.
func (t *transformNode) docErr(r tree.Reporter, fr *diag.Frame, err error) error {
	var te *transform.Error
	if !errors.As(err, &te) {
		return err
	}
	return r.ErrAt(fr, t.nodeAt([]any{te.Field}), "$transform."+te.Field, te.Msg)
}
