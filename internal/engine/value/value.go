package value

// Value is an engine value. It is always one of:
//
//   - nil (YAML/JSON null)
//   - bool
//   - int64
//   - float64
//   - string
//   - *Map (an ordered mapping with string keys)
//   - []Value (a sequence)
//   - Unknown (a value that is not known yet, e.g. during terraform plan)
//
// Everything the engine returns and accepts is built from these kinds only.
// Values that YAML cannot hold (timestamps, durations, bytes, Kubernetes
// quantities, ...) are turned into strings when they leave CEL.
type Value = any

// Map is a mapping with string keys that keeps insertion order. Mappings
// written in a template keep template order; maps that come from CEL or from
// the caller's variables are built with sorted keys.
type Map struct {
	keys  []string
	vals  []Value
	index map[string]int // built once the map grows past mapIndexThreshold
}

const mapIndexThreshold = 8

// Maps of up to eight entries are allocated together with their storage,
// in the smallest of six sizes that fits: a rendered document is mostly
// small maps, and one allocation of the right size instead of three (or
// of one too large) is a good part of rendering's cost. The sizes are
// those whose allocation fills one of Go's size classes (96, 128, 160, 192,
// 256 and 320 bytes) with little to spare.
type (
	map1 struct {
		m Map
		k [1]string
		v [1]Value
	}
	map2 struct {
		m Map
		k [2]string
		v [2]Value
	}
	map3 struct {
		m Map
		k [3]string
		v [3]Value
	}
	map4 struct {
		m Map
		k [4]string
		v [4]Value
	}
	map6 struct {
		m Map
		k [6]string
		v [6]Value
	}
	map8 struct {
		m Map
		k [8]string
		v [8]Value
	}
)

// NewMap returns an empty map with room for n entries.
func NewMap(n int) *Map {
	switch {
	case n <= 1:
		s := &map1{}
		return s.m.over(s.k[:0], s.v[:0])
	case n <= 2:
		s := &map2{}
		return s.m.over(s.k[:0], s.v[:0])
	case n <= 3:
		s := &map3{}
		return s.m.over(s.k[:0], s.v[:0])
	case n <= 4:
		s := &map4{}
		return s.m.over(s.k[:0], s.v[:0])
	case n <= 6:
		s := &map6{}
		return s.m.over(s.k[:0], s.v[:0])
	case n <= 8:
		s := &map8{}
		return s.m.over(s.k[:0], s.v[:0])
	}
	return &Map{keys: make([]string, 0, n), vals: make([]Value, 0, n)}
}

// over makes m use k and v, empty slices of its size class's arrays, for
// its entries.
func (m *Map) over(k []string, v []Value) *Map {
	m.keys, m.vals = k, v
	return m
}

// Len returns the number of entries.
func (m *Map) Len() int {
	if m == nil {
		return 0
	}
	return len(m.keys)
}

// At returns the i-th entry in order.
func (m *Map) At(i int) (string, Value) { return m.keys[i], m.vals[i] }

// Keys returns the keys in order. The slice must not be modified.
func (m *Map) Keys() []string {
	if m == nil {
		return nil
	}
	return m.keys
}

func (m *Map) find(k string) int {
	if m.index != nil {
		if i, ok := m.index[k]; ok {
			return i
		}
		return -1
	}
	for i, kk := range m.keys {
		if kk == k {
			return i
		}
	}
	return -1
}

// Get returns the value stored under k.
func (m *Map) Get(k string) (Value, bool) {
	if m == nil {
		return nil, false
	}
	if i := m.find(k); i >= 0 {
		return m.vals[i], true
	}
	return nil, false
}

// Has reports whether k is present.
func (m *Map) Has(k string) bool {
	return m != nil && m.find(k) >= 0
}

// Set stores v under k. A new key is appended; an existing key keeps its
// place and gets the new value. It reports whether the key already existed.
func (m *Map) Set(k string, v Value) bool {
	if i := m.find(k); i >= 0 {
		m.vals[i] = v
		return true
	}
	m.keys = append(m.keys, k)
	m.vals = append(m.vals, v)
	if m.index != nil {
		m.index[k] = len(m.keys) - 1
	} else if len(m.keys) > mapIndexThreshold {
		m.index = make(map[string]int, len(m.keys)*2)
		for i, kk := range m.keys {
			m.index[kk] = i
		}
	}
	return false
}

// Clone returns a shallow copy of m (the values are shared, the entries
// are not) with room for extra more entries. A nil m gives an empty map.
func (m *Map) Clone(extra int) *Map {
	out := NewMap(m.Len() + extra)
	if m == nil {
		return out
	}
	out.keys = append(out.keys, m.keys...)
	out.vals = append(out.vals, m.vals...)
	if len(out.keys) > mapIndexThreshold {
		out.index = make(map[string]int, len(out.keys)*2)
		for i, k := range out.keys {
			out.index[k] = i
		}
	}
	return out
}

// IndexOf gives the place of k, or -1.
func (m *Map) IndexOf(k string) int {
	if m == nil {
		return -1
	}
	return m.find(k)
}

// SetAt replaces the value of the i-th entry.
func (m *Map) SetAt(i int, v Value) { m.vals[i] = v }

// Delete removes k, keeping the order of the other entries.
func (m *Map) Delete(k string) {
	i := m.find(k)
	if i < 0 {
		return
	}
	m.keys = append(m.keys[:i], m.keys[i+1:]...)
	m.vals = append(m.vals[:i], m.vals[i+1:]...)
	if m.index != nil {
		delete(m.index, k)
		for j := i; j < len(m.keys); j++ {
			m.index[m.keys[j]] = j
		}
	}
}

// unknownStream marks a document stream whose length is not known.
type unknownStream struct{}

// HasUnknown reports whether v holds an Unknown anywhere: itself, or a
// value of a Map or an item of a list at any depth.
func HasUnknown(v Value) bool {
	switch x := v.(type) {
	case Unknown:
		return true
	case *Map:
		for i := 0; i < x.Len(); i++ {
			if _, e := x.At(i); HasUnknown(e) {
				return true
			}
		}
	case []Value:
		for _, e := range x {
			if HasUnknown(e) {
				return true
			}
		}
	}
	return false
}

// UnknownStream is the only element of the document list Render returns when
// the number of documents is not known yet: a document-root $for over an
// unknown collection, or a stream-position $if whose condition is unknown.
var UnknownStream Value = unknownStream{}

// IsUnknownStream reports whether docs is the unknown stream.
func IsUnknownStream(docs []Value) bool {
	return len(docs) == 1 && docs[0] == UnknownStream
}

// Copy returns v with every mapping and sequence in it copied, so that the
// copy shares no mutable state with v: a schema default bound in a scope,
// or a merge result, stays as it is when the original changes.
func Copy(v Value) Value {
	switch x := v.(type) {
	case *Map:
		out := NewMap(x.Len())
		for i := 0; i < x.Len(); i++ {
			k, e := x.At(i)
			out.Set(k, Copy(e))
		}
		return out
	case []Value:
		out := make([]Value, len(x))
		for i, e := range x {
			out[i] = Copy(e)
		}
		return out
	}
	return v
}
