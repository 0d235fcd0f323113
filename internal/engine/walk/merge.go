package walk

// Rendering a mapping: its preludes, then its producers and regular keys
// (one producer alone replaces the mapping; otherwise they merge).

// RunPreludes runs $schema, $let and $assert. unknown is true when an $assert
// cannot be decided yet, which makes the whole mapping unknown.
func (r *Renderer) RunPreludes(m *MapNode, sc *Scope, fr *Frame) (*Scope, bool, error) {
	for _, p := range m.Preludes {
		next, unknown, err := p.Run(r, sc, fr)
		if err != nil || unknown {
			return nil, unknown, err
		}
		sc = next
	}
	return sc, false, nil
}

func (r *Renderer) mapValue(m *MapNode, sc *Scope, fr *Frame) (Value, bool, error) {
	sc, unknown, err := r.RunPreludes(m, sc, fr)
	if err != nil {
		return nil, false, err
	}
	if unknown {
		return Unknown{}, true, nil
	}
	if m.Replaces() {
		return m.Prods[0].Value(r, sc, fr)
	}
	return r.Merge(m, sc, fr)
}

func (r *Renderer) mapMulti(m *MapNode, sc *Scope, fr *Frame, pos Position, dst []Value) ([]Value, error) {
	sc, unknown, err := r.RunPreludes(m, sc, fr)
	if err != nil {
		return dst, err
	}
	if unknown {
		if m.Replaces() {
			return dst, ErrUnknownShape
		}
		return append(dst, Unknown{}), nil
	}
	if m.Replaces() {
		return m.Prods[0].Multi(r, sc, fr, pos, dst)
	}
	v, ok, err := r.Merge(m, sc, fr)
	return AppendIf(dst, v, ok, err)
}

// Merge builds the mapping from its producers and regular keys.
func (r *Renderer) Merge(m *MapNode, sc *Scope, fr *Frame) (Value, bool, error) {
	var small [4]*Map
	results := small[:0]
	if len(m.Prods) > len(small) {
		results = make([]*Map, 0, len(m.Prods))
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
		case *Map:
			results = append(results, v)
		case Unknown:
			return Unknown{}, true, nil
		default:
			why := "has other keys"
			if m.nRegular == 0 {
				why = "has several producers"
			}
			return nil, false, r.ErrAt(fr, p.KeyNode(), JoinPath(m.path, p.Name()),
				"this mapping "+why+", so "+p.Name()+" must give a mapping to merge into it (or nothing), got "+ValueKind(v)+m.slip)
		}
	}
	size := m.nRegular
	for _, res := range results {
		size += res.Len()
	}
	out := NewMap(size)
	for ei, e := range m.Entries {
		if e.prod >= 0 {
			res := results[e.prod]
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
		if out.Set(e.name, v) {
			return nil, false, r.dupErr(m, results, ei, e.name, fr)
		}
	}
	if err := r.Count(fr, m.n, m.path, 1, 2); err != nil {
		return nil, false, err
	}
	return out, true, nil
}
