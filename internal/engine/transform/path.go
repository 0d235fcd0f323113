package transform

import (
	"strconv"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// shapeError is a value of the wrong kind where a transform edits: a
// string where a mapping should stand.
// Its path is collected while the walk unwinds, innermost first, so that a
// walk that succeeds pays nothing for it.
type shapeError struct {
	rpath []any // keys and indexes from the culprit up to the document
	want  string
	got   value.Value
}

func (e *shapeError) Error() string {
	var b strings.Builder
	for i := len(e.rpath) - 1; i >= 0; i-- {
		switch x := e.rpath[i].(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(x)
		case int:
			b.WriteString("[" + strconv.Itoa(x) + "]")
		}
	}
	return b.String() + " is " + kindName(e.got) + ", where " + e.want + " should stand"
}

// under adds a step of the path to err, a *shapeError.
func under(err error, step any) error {
	if e, ok := err.(*shapeError); ok {
		e.rpath = append(e.rpath, step)
	}
	return err
}

func kindName(v value.Value) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a bool"
	case int64:
		return "an int"
	case float64:
		return "a number"
	case []value.Value:
		return "a sequence"
	case *value.Map:
		return "a mapping"
	case nil:
		return "null"
	}
	return "a value of another kind"
}

// owner knows the mappings and sequences that the document being changed
// got from this transform, fresh copies no one else holds: those are
// changed in place by the later edits of the same document, so a document
// is copied once, however many fields change it.
type owner struct {
	maps map[*value.Map]struct{}
	seqs map[*value.Value]struct{} // by the address of the first item
}

func newOwner() *owner {
	return &owner{maps: map[*value.Map]struct{}{}, seqs: map[*value.Value]struct{}{}}
}

// reset forgets what the last document owned.
func (o *owner) reset() {
	clear(o.maps)
	clear(o.seqs)
}

// mapCopy is m, when owned, or an owned copy with room for extra entries.
func (o *owner) mapCopy(m *value.Map, extra int) *value.Map {
	if _, ok := o.maps[m]; ok {
		return m
	}
	c := m.Clone(extra)
	o.maps[c] = struct{}{}
	return c
}

// newMap is a new owned mapping.
func (o *owner) newMap(n int) *value.Map {
	c := value.NewMap(n)
	o.maps[c] = struct{}{}
	return c
}

// seqCopy is s, when owned, or an owned copy.
func (o *owner) seqCopy(s []value.Value) []value.Value {
	if len(s) == 0 {
		return s
	}
	if _, ok := o.seqs[&s[0]]; ok {
		return s
	}
	c := append([]value.Value(nil), s...)
	o.seqs[&c[0]] = struct{}{}
	return c
}

// leafFn edits what a path reaches; it reports whether it changed it.
type leafFn func(v value.Value) (value.Value, bool, error)

// edit walks path from v and applies leaf to what it reaches, returning the
// new value and whether anything changed; v itself is never changed. A
// sequence on the way is walked item by item with the same path; a value
// not known yet stays as it is (an unknown mapping holds unknown keys); a
// missing or null key ends the walk, unless create, which puts an empty
// mapping there. A key written with a "[]" suffix names a sequence, which
// is never created: Kubernetes wants a list there, and an absent list
// (a StatefulSet without volumeClaimTemplates) stays absent.
func (o *owner) edit(v value.Value, path []string, create bool, leaf leafFn) (value.Value, bool, error) {
	if len(path) == 0 {
		return leaf(v)
	}
	switch x := v.(type) {
	case value.Unknown:
		return v, false, nil
	case []value.Value:
		var out []value.Value
		for i, el := range x {
			nv, changed, err := o.edit(el, path, create, leaf)
			if err != nil {
				return nil, false, under(err, i)
			}
			if changed {
				if out == nil {
					out = o.seqCopy(x)
				}
				out[i] = nv
			}
		}
		if out == nil {
			return v, false, nil
		}
		return out, true, nil
	case *value.Map:
		key, seq := path[0], false
		if strings.HasSuffix(key, "[]") {
			key, seq = key[:len(key)-2], true
		}
		child, ok := x.Get(key)
		if !ok || child == nil {
			if !create || seq {
				return v, false, nil
			}
			child = o.newMap(1)
		}
		nv, changed, err := o.edit(child, path[1:], create, leaf)
		if err != nil {
			return nil, false, under(err, key)
		}
		if !changed {
			return v, false, nil
		}
		out := o.mapCopy(x, 1)
		out.Set(key, nv)
		return out, true, nil
	case nil:
		return v, false, nil
	}
	return nil, false, &shapeError{want: "a mapping", got: v}
}

// setEntries is the leaf that sets entries (labels, annotations) in the
// mapping it reaches.
func (o *owner) setEntries(entries []Entry) leafFn {
	return func(v value.Value) (value.Value, bool, error) {
		switch x := v.(type) {
		case value.Unknown:
			return v, false, nil
		case *value.Map:
			out := o.mapCopy(x, len(entries))
			for _, e := range entries {
				out.Set(e.Key, e.Value)
			}
			return out, true, nil
		}
		return nil, false, &shapeError{want: "a mapping", got: v}
	}
}

// setValue is the leaf that sets one value.
func setValue(nv value.Value) leafFn {
	return func(value.Value) (value.Value, bool, error) { return nv, true, nil }
}

// getString reads a string at path in m: ok is false when it is absent or
// not a string, unknown true when it is not known yet.
func getString(v value.Value, path ...string) (s string, ok, unknown bool) {
	for _, k := range path {
		m, isMap := v.(*value.Map)
		if !isMap {
			_, unknown = v.(value.Unknown)
			return "", false, unknown
		}
		v, _ = m.Get(k)
	}
	switch x := v.(type) {
	case string:
		return x, true, false
	case value.Unknown:
		return "", false, true
	}
	return "", false, false
}
