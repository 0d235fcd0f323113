package overlay

import (
	"strconv"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// Applying the list edits of a patch to the sequence they edit.

// listEdit is an edit list rendered in an overlay's patch, waiting for the
// sequence it edits: merge.Onto hands it that sequence.
type listEdit struct {
	seq *editSeq
	r   tree.Renderer
	sc  *scope.Scope
	fr  *diag.Frame
}

var _ merge.Edit = (*listEdit)(nil)

// Edit runs the edits on base, a sequence, or nil when the document has no
// such key. A $match or $remove that cannot be decided makes the sequence
// unknown.
func (l *listEdit) Edit(base value.Value) (value.Value, error) {
	var items []value.Value
	switch b := base.(type) {
	case nil:
	case []value.Value:
		items = b
	case value.Unknown:
		return value.Unknown{}, nil
	default:
		return nil, l.r.ErrAt(l.fr, l.seq.n, l.seq.path, "these list edits edit a sequence, but the document holds "+tree.ValueKind(b)+" here")
	}
	for _, op := range l.seq.ops {
		var unknown bool
		var err error
		if items, unknown, err = op.apply(l.r, l.sc, l.fr, items); err != nil || unknown {
			return value.Unknown{}, err
		}
	}
	if items == nil {
		items = []value.Value{}
	}
	return items, nil
}

// apply runs one edit on items and returns the new items; it never
// changes items itself.
func (op *editOp) apply(r tree.Renderer, sc *scope.Scope, fr *diag.Frame, items []value.Value) ([]value.Value, bool, error) {
	if op.dir == "$append" {
		v, ok, err := r.Value(op.value, sc, fr)
		if err != nil || !ok {
			return items, false, err
		}
		return append(items[:len(items):len(items)], v), false, nil
	}
	out := make([]value.Value, 0, len(items))
	matched := 0
	inner := scope.New(sc, 1) // one for every item: nothing keeps it
	var cache patchCache
	for _, it := range items {
		if err := r.Step(fr, op.key, op.path); err != nil {
			return nil, false, err
		}
		inner.BindValue("item", it)
		d, patch, patched, err := op.guard.Run(r, inner, fr, &cache)
		switch {
		case err != nil:
			return nil, false, err
		case d == undecided:
			return nil, true, nil
		case d == decidedNo:
			out = append(out, it)
			continue
		}
		matched++
		if op.dir == "$remove" {
			continue
		}
		if it, err = op.patchItem(r, fr, it, patch, patched); err != nil {
			return nil, false, err
		}
		out = append(out, it)
	}
	if ok, _ := op.expect.holds(matched, matched); !ok {
		at := op.key
		if op.expect.key != nil {
			at = op.expect.key
		}
		return nil, false, r.ErrAt(fr, at, op.path, "this "+op.dir+" expects "+op.expect.String()+" matching "+plural(op.expect.n, "item")+
			", and "+strconv.Itoa(matched)+" of the "+strconv.Itoa(len(items))+" items matched"+expectsHint(op.expect))
	}
	return out, false, nil
}

// patchItem merges a $match's patch onto a matching item.
func (op *editOp) patchItem(r tree.Reporter, fr *diag.Frame, it, patch value.Value, patched bool) (value.Value, error) {
	if !patched || patch == nil {
		return it, nil
	}
	switch patch.(type) {
	case *value.Map, value.Unknown:
		return merge.Onto(it, patch)
	}
	return nil, r.ErrAt(fr, op.key, op.path, "the keys beside $match make the patch of each matching item and must give a mapping (or nothing), got "+tree.ValueKind(patch))
}
