package walk

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"go.yaml.in/yaml/v3"
)

// Rendering a mapping: its preludes, then its producers and regular keys
// (one producer alone replaces the mapping; otherwise they merge).

// RunPreludes runs $schema, $let and $assert. unknown is true when an $assert
// cannot be decided yet, which makes the whole mapping unknown.
func (r *Renderer) RunPreludes(m *tree.MapNode, sc *scope.Scope, fr *diag.Frame) (*scope.Scope, bool, error) {
	for _, p := range m.Preludes {
		next, unknown, err := p.Run(r, sc, fr)
		if err != nil || unknown {
			return nil, unknown, err
		}
		sc = next
	}
	return sc, false, nil
}

func (r *Renderer) mapValue(m *tree.MapNode, sc *scope.Scope, fr *diag.Frame) (value.Value, bool, error) {
	sc, unknown, err := r.RunPreludes(m, sc, fr)
	if err != nil {
		return nil, false, err
	}
	if unknown {
		return value.Unknown{}, true, nil
	}
	if m.Replaces() {
		return m.Prods[0].Value(r, sc, fr)
	}
	return r.Merge(m, sc, fr)
}

func (r *Renderer) mapMulti(m *tree.MapNode, sc *scope.Scope, fr *diag.Frame, pos tree.Position, dst []value.Value) ([]value.Value, error) {
	sc, unknown, err := r.RunPreludes(m, sc, fr)
	if err != nil {
		return dst, err
	}
	if unknown {
		if m.Replaces() {
			return dst, tree.ErrUnknownShape
		}
		return append(dst, value.Unknown{}), nil
	}
	if m.Replaces() {
		return m.Prods[0].Multi(r, sc, fr, pos, dst)
	}
	v, ok, err := r.Merge(m, sc, fr)
	return tree.AppendIf(dst, v, ok, err)
}

// Merge builds the mapping from its producers and regular keys.
func (r *Renderer) Merge(m *tree.MapNode, sc *scope.Scope, fr *diag.Frame) (value.Value, bool, error) {
	var small [4]*value.Map
	results := small[:0]
	if len(m.Prods) > len(small) {
		results = make([]*value.Map, 0, len(m.Prods))
	}
	for _, p := range m.Prods {
		v, ok, err := p.Value(r, sc, fr)
		if err != nil {
			return nil, false, err
		}
		if !ok || v == nil {
			results = append(results, nil)
			continue
		}
		switch v := v.(type) {
		case *value.Map:
			results = append(results, v)
		case value.Unknown:
			return value.Unknown{}, true, nil
		default:
			why := "has other keys"
			if m.NRegular == 0 {
				why = "has several producers"
			}
			return nil, false, r.ErrAt(fr, p.KeyNode(), tree.JoinPath(m.Path, p.Name()),
				"this mapping "+why+", so "+p.Name()+" must give a mapping to merge into it (or nothing), got "+tree.ValueKind(v)+m.Slip)
		}
	}
	size := m.NRegular
	for _, res := range results {
		size += res.Len()
	}
	out := value.NewMap(size)
	for ei, e := range m.Entries {
		if e.Prod >= 0 {
			res := results[e.Prod]
			for i := 0; i < res.Len(); i++ {
				k, v := res.At(i)
				if out.Set(k, v) {
					return nil, false, r.dupErr(m, results, ei, k, fr)
				}
			}
			continue
		}
		v, ok, err := r.Value(e.Val, sc, fr)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			continue
		}
		if out.Set(e.Name, v) {
			return nil, false, r.dupErr(m, results, ei, e.Name, fr)
		}
	}
	if err := r.Count(fr, m.Node, m.Path, 1, 2); err != nil {
		return nil, false, err
	}
	return out, true, nil
}

// origin says where a mapping entry gives a key: written, or produced by a
// directive, at its key's line and column.
func origin(prod string, key *yaml.Node) string {
	at := "line " + tree.Itoa(key.Line) + ", column " + tree.Itoa(key.Column)
	if prod == "" {
		return "written at " + at
	}
	return "produced by " + prod + " at " + at
}

// dupErr reports key k, given again by entry ei, naming the entry that gave
// it first. The key is printed only when one of the two places writes it
// in the template: a produced key may hold a variable's value.
func (r *Renderer) dupErr(m *tree.MapNode, results []*value.Map, ei int, k string, fr *diag.Frame) error {
	where := func(e tree.MapEntry) string {
		if e.Prod >= 0 {
			return origin(m.Prods[e.Prod].Name(), e.Key)
		}
		return origin("", e.Key)
	}
	var first tree.MapEntry
	for _, e := range m.Entries[:ei+1] {
		if (e.Prod >= 0 && results[e.Prod].Has(k)) || (e.Prod < 0 && e.Name == k) {
			first = e
			break
		}
	}
	e := m.Entries[ei]
	if m.EntryWrites(first, k) || m.EntryWrites(e, k) {
		return r.ErrAt(fr, e.Key, tree.JoinPath(m.Path, k), "duplicate key "+tree.Quote(k)+": "+where(first)+", and again "+where(e))
	}
	return r.ErrAt(fr, e.Key, m.Path, "duplicate key: "+where(first)+", and again "+where(e)+" (the key is not shown, as it may hold a variable's value)")
}
