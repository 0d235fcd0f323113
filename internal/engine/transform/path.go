package transform

import (
	"strconv"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// trail is the path from a document's root to the value being edited,
// kept on the stack and written out only for an error.
type trail struct {
	up    *trail
	key   string
	index int // for an item of a sequence; key is "" then
}

func (t *trail) String() string {
	var parts []string
	for ; t != nil; t = t.up {
		if t.key != "" {
			parts = append(parts, "."+t.key)
		} else {
			parts = append(parts, "["+strconv.Itoa(t.index)+"]")
		}
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
	}
	return strings.TrimPrefix(b.String(), ".")
}

// shapeError is a value of the wrong kind where a transform edits: a
// string where a mapping should stand.
type shapeError struct {
	at   string
	want string
	got  value.Value
}

func (e *shapeError) Error() string {
	return e.at + " is " + kindName(e.got) + ", where " + e.want + " should stand"
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

// leafFn edits what a path reaches; it reports whether it changed it.
type leafFn func(v value.Value, at *trail) (value.Value, bool, error)

// edit walks path from v and applies leaf to what it reaches, returning the
// new value and whether anything changed; v itself is never changed. A
// sequence on the way is walked item by item with the same path; a value
// not known yet stays as it is (an unknown mapping holds unknown keys); a
// missing or null key ends the walk, unless create, which puts an empty
// mapping there.
func edit(v value.Value, path []string, create bool, at *trail, leaf leafFn) (value.Value, bool, error) {
	if len(path) == 0 {
		return leaf(v, at)
	}
	switch x := v.(type) {
	case value.Unknown:
		return v, false, nil
	case []value.Value:
		var out []value.Value
		for i, el := range x {
			nv, changed, err := edit(el, path, create, &trail{up: at, index: i}, leaf)
			if err != nil {
				return nil, false, err
			}
			if changed {
				if out == nil {
					out = append([]value.Value(nil), x...)
				}
				out[i] = nv
			}
		}
		if out == nil {
			return v, false, nil
		}
		return out, true, nil
	case *value.Map:
		key := path[0]
		child, ok := x.Get(key)
		if !ok || child == nil {
			if !create {
				return v, false, nil
			}
			child = value.NewMap(1)
		}
		nv, changed, err := edit(child, path[1:], create, &trail{up: at, key: key}, leaf)
		if err != nil || !changed {
			return v, false, err
		}
		out := x.Clone(1)
		out.Set(key, nv)
		return out, true, nil
	case nil:
		return v, false, nil
	}
	return nil, false, &shapeError{at: at.String(), want: "a mapping", got: v}
}

// setEntries is the leaf that sets entries (labels, annotations) in the
// mapping it reaches.
func setEntries(entries []Entry) leafFn {
	return func(v value.Value, at *trail) (value.Value, bool, error) {
		switch x := v.(type) {
		case value.Unknown:
			return v, false, nil
		case *value.Map:
			out := x.Clone(len(entries))
			for _, e := range entries {
				out.Set(e.Key, e.Value)
			}
			return out, true, nil
		}
		return nil, false, &shapeError{at: at.String(), want: "a mapping", got: v}
	}
}

// setValue is the leaf that sets one value.
func setValue(nv value.Value) leafFn {
	return func(value.Value, *trail) (value.Value, bool, error) { return nv, true, nil }
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
