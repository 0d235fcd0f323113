package walk

import (
	"errors"

	"go.yaml.in/yaml/v3"
)

// Rendering a compiled node in value, item or stream position.

// Value renders t in value position.
func (r *Renderer) Value(t Node, sc *Scope, fr *Frame) (Value, bool, error) {
	switch t := t.(type) {
	case *ConstNode:
		if err := r.Count(fr, t.n, t.path, t.nodes, t.bytes); err != nil {
			return nil, false, err
		}
		return t.Value, true, nil
	case *SeqNode:
		out := make([]Value, 0, len(t.elems))
		for _, el := range t.elems {
			var err error
			out, err = r.Multi(el, sc, fr, PosItem, out)
			if errors.Is(err, ErrUnknownShape) {
				return Unknown{}, true, nil
			}
			if err != nil {
				return nil, false, err
			}
		}
		if err := r.Count(fr, t.n, t.path, 1, 2); err != nil {
			return nil, false, err
		}
		return out, true, nil
	case *MapNode:
		return r.mapValue(t, sc, fr)
	case SelfRenderer:
		return t.Value(r, sc, fr)
	}
	return nil, false, nil
}

// Multi renders t in item or stream position, appending what it gives.
func (r *Renderer) Multi(t Node, sc *Scope, fr *Frame, pos Position, dst []Value) ([]Value, error) {
	switch t := t.(type) {
	case *MapNode:
		return r.mapMulti(t, sc, fr, pos, dst)
	case SelfRenderer:
		return t.Multi(r, sc, fr, pos, dst)
	}
	v, ok, err := r.Value(t, sc, fr)
	return AppendIf(dst, v, ok, err)
}

// SelfRenderer is a compiled node that renders itself: what a package
// beside the walker compiles (an overlay document, an edit list of an
// overlay's patch).
type SelfRenderer interface {
	// Value renders in value position: a value, or nothing (false).
	Value(r *Renderer, sc *Scope, fr *Frame) (Value, bool, error)
	// Multi renders in item or stream position, appending to dst.
	Multi(r *Renderer, sc *Scope, fr *Frame, pos Position, dst []Value) ([]Value, error)
}

// Pending is an overlay (or a transform) reached in the stream: once
// every document is rendered, Apply edits them (reference §8, §10).
type Pending interface {
	Apply(r *Renderer, docs []Value) ([]Value, error)
}

// AddPending queues p; the pending overlays apply in stream order.
func (r *Renderer) AddPending(p Pending) { r.pending = append(r.pending, p) }

// AddLate queues p after every overlay, wherever it stands in the stream:
// the transforms apply, in stream order, once the overlays have
// (reference §10).
func (r *Renderer) AddLate(p Pending) { r.late = append(r.late, p) }

// AppendIf adds what a value-position render gave to dst: the value, or
// nothing.
func AppendIf(dst []Value, v Value, ok bool, err error) ([]Value, error) {
	if err == nil && ok {
		dst = append(dst, v)
	}
	return dst, err
}

// Splice renders a body written as a YAML sequence in item or stream
// position: its items are added in place.
func (r *Renderer) Splice(body Node, key *yaml.Node, path string, sc *Scope, fr *Frame, pos Position, dst []Value) ([]Value, error) {
	if pos == PosStream {
		return dst, r.ErrAt(fr, key, path, "a "+key.Value+" body written as a sequence cannot stand at a document root: documents are not lists; write a mapping per document, or put the sequence under a key")
	}
	switch b := body.(type) {
	case *ConstNode:
		items, _ := b.Value.([]Value)
		if err := r.Count(fr, key, path, b.nodes, b.bytes); err != nil {
			return dst, err
		}
		return append(dst, items...), nil
	case *SeqNode:
		for _, el := range b.elems {
			var err error
			if dst, err = r.Multi(el, sc, fr, PosItem, dst); err != nil {
				return dst, err
			}
		}
		return dst, nil
	}
	return r.Multi(body, sc, fr, pos, dst)
}
