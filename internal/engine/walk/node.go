package walk

import (
	"errors"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"go.yaml.in/yaml/v3"
)

// Rendering a compiled node in value, item or stream position.

// Value renders t in value position.
func (r *Renderer) Value(t tree.Node, sc *scope.Scope, fr *diag.Frame) (value.Value, bool, error) {
	switch t := t.(type) {
	case *tree.ConstNode:
		if err := r.Count(fr, t.Node, t.Path, t.Nodes, t.Bytes); err != nil {
			return nil, false, err
		}
		return t.Value, true, nil
	case *tree.SeqNode:
		out := make([]value.Value, 0, len(t.Elems))
		for i, el := range t.Elems {
			var err error
			out, err = r.Multi(el, sc, fr, tree.PosItem, out)
			if errors.Is(err, tree.ErrUnknownShape) {
				return r.unknownSeq(t.Elems[i+1:], out, err, sc, fr), true, nil
			}
			if err != nil {
				return nil, false, err
			}
		}
		if err := r.Count(fr, t.Node, t.Path, 1, 2); err != nil {
			return nil, false, err
		}
		return out, true, nil
	case *tree.MapNode:
		return r.mapValue(t, sc, fr)
	case tree.SelfRenderer:
		return t.Value(r, sc, fr)
	}
	return nil, false, nil
}

// unknownSeq is a sequence whose number of items an unknown decides (err,
// from one of its items): an unknown list of the type each of its items
// has when err says what type the items it stands for have
// (tree.UnknownItemsError, a $for over an unknown collection) and every
// other item, those before (done) and those after (rest), has it too;
// otherwise an unknown of dynamic type, as is also any error the rest
// meets (the apply reports it with the values).
func (r *Renderer) unknownSeq(rest []tree.Node, done []value.Value, err error, sc *scope.Scope, fr *diag.Frame) value.Value {
	var items *tree.UnknownItemsError
	if !errors.As(err, &items) {
		return value.Unknown{}
	}
	elem := items.Elem
	same := func(vs []value.Value) bool {
		for _, v := range vs {
			if !value.TypeOfRendered(v).Equal(elem) {
				return false
			}
		}
		return true
	}
	if !same(done) {
		return value.Unknown{}
	}
	var more []value.Value
	for _, el := range rest {
		more, err = r.Multi(el, sc, fr, tree.PosItem, more[:0])
		if err != nil {
			if errors.As(err, &items) && items.Elem.Equal(elem) {
				continue
			}
			return value.Unknown{}
		}
		if !same(more) {
			return value.Unknown{}
		}
	}
	return value.UnknownOf(value.ListOf(elem))
}

// Multi renders t in item or stream position, appending what it gives.
func (r *Renderer) Multi(t tree.Node, sc *scope.Scope, fr *diag.Frame, pos tree.Position, dst []value.Value) ([]value.Value, error) {
	switch t := t.(type) {
	case *tree.MapNode:
		return r.mapMulti(t, sc, fr, pos, dst)
	case tree.SelfRenderer:
		return t.Multi(r, sc, fr, pos, dst)
	}
	v, ok, err := r.Value(t, sc, fr)
	return tree.AppendIf(dst, v, ok, err)
}

// AddPending queues p; the pending overlays apply in stream order.
func (r *Renderer) AddPending(p tree.Pending) { r.pending = append(r.pending, p) }

// AddLate queues p after every overlay, wherever it stands in the stream:
// the transforms apply, in stream order, once the overlays have
// (reference §10).
func (r *Renderer) AddLate(p tree.Pending) { r.late = append(r.late, p) }

// Late are the transforms queued so far, in stream order.
func (r *Renderer) Late() []tree.Pending { return r.late }

// Splice renders a body written as a YAML sequence in item or stream
// position: its items are added in place.
func (r *Renderer) Splice(body tree.Node, key *yaml.Node, path string, sc *scope.Scope, fr *diag.Frame, pos tree.Position, dst []value.Value) ([]value.Value, error) {
	if pos == tree.PosStream {
		return dst, r.ErrAt(fr, key, path, "a "+key.Value+" body written as a sequence cannot stand at a document root: documents are not lists; write a mapping per document, or put the sequence under a key")
	}
	switch b := body.(type) {
	case *tree.ConstNode:
		items, _ := b.Value.([]value.Value)
		if err := r.Count(fr, key, path, b.Nodes, b.Bytes); err != nil {
			return dst, err
		}
		return append(dst, items...), nil
	case *tree.SeqNode:
		for _, el := range b.Elems {
			var err error
			if dst, err = r.Multi(el, sc, fr, tree.PosItem, dst); err != nil {
				return dst, err
			}
		}
		return dst, nil
	}
	return r.Multi(body, sc, fr, pos, dst)
}

// ErrAt builds a *diag.Error at node n of the file in fr.
func (r *Renderer) ErrAt(fr *diag.Frame, n *yaml.Node, path, msg string) *diag.Error {
	p := diag.Pos{File: fr.File, Line: 1, Column: 1}
	if n != nil && n.Line > 0 {
		p.Line, p.Column = n.Line, n.Column
	}
	return &diag.Error{Pos: p, Path: path, Msg: msg, Offset: -1, Chain: fr.Chain}
}

// ResultErr is the error for an expression's result as a whole, one that
// cannot be converted or written out: the caret goes under the
// expression's first character, past the spaces after "${{".
func (r *Renderer) ResultErr(fr *diag.Frame, x *tree.ExprRef, err error) error {
	off := x.Off + len(x.Text) - len(strings.TrimLeft(x.Text, " \t\r\n"))
	return &diag.Error{Pos: diag.Pos{File: fr.File, Line: x.Node.Line, Column: x.Node.Column}, Path: x.Path,
		Msg: err.Error(), Expr: x.Shown, Offset: off, Chain: fr.Chain}
}

func (r *Renderer) compileErr(fr *diag.Frame, c *tree.CompileError) error {
	return c.In(fr)
}
