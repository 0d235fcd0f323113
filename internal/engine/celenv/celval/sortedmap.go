package celval

import (
	"sort"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// Deterministic map literals: a map built by an expression is walked in sorted key order.

// SortMap gives a map that CEL built walked in sorted key order; any other
// value as it is.
func SortMap(v ref.Val) ref.Val {
	m, ok := v.(traits.Mapper)
	if !ok {
		return v
	}
	return &sortedMap{Mapper: m, keys: SortedKeys(m)}
}

// SortedKeys returns a map's keys in the order CEL map values are walked
// everywhere in the engine (SortKeys): bools, then numbers, then strings.
func SortedKeys(m traits.Mapper) []ref.Val {
	n, _ := m.Size().(types.Int)
	keys := make([]ref.Val, 0, int(n))
	for it := m.Iterator(); it.HasNext() == types.True; {
		keys = append(keys, it.Next())
	}
	SortKeys(keys)
	return keys
}

// SortKeys orders map keys: bools, then numbers by value, then strings.
func SortKeys(keys []ref.Val) {
	rank := func(v ref.Val) int {
		switch v.(type) {
		case types.Bool:
			return 0
		case types.Int, types.Uint, types.Double:
			return 1
		case types.String:
			return 2
		}
		return 3
	}
	less := func(a, b ref.Val) bool {
		ra, rb := rank(a), rank(b)
		if ra != rb {
			return ra < rb
		}
		switch a := a.(type) {
		case types.Bool: // b has a's rank, so a's type
			bb, _ := b.(types.Bool)
			return !bool(a) && bool(bb)
		case types.String:
			bs, _ := b.(types.String)
			return a < bs
		}
		if c, ok := a.(traits.Comparer); ok {
			return c.Compare(b) == types.IntNegOne
		}
		return false
	}
	sort.SliceStable(keys, func(i, j int) bool { return less(keys[i], keys[j]) })
}

// sortedMap is a cel-go map that iterates its keys in sorted order.
type sortedMap struct {
	traits.Mapper
	keys []ref.Val
}

// IsZeroValue reports an empty map, as the map it wraps would.
func (m *sortedMap) IsZeroValue() bool { return len(m.keys) == 0 }

func (m *sortedMap) Iterator() traits.Iterator { return &refIterator{vals: m.keys} }

func (m *sortedMap) Fold(f traits.Folder) {
	for _, k := range m.keys {
		v, _ := m.Find(k)
		if !f.FoldEntry(k, v) {
			return
		}
	}
}

func (m *sortedMap) ConvertToType(t ref.Type) ref.Val {
	if t == types.MapType {
		return m
	}
	return m.Mapper.ConvertToType(t)
}

type refIterator struct {
	iterBase
	vals []ref.Val
	i    int
}

func (it *refIterator) HasNext() ref.Val { return types.Bool(it.i < len(it.vals)) }
func (it *refIterator) Next() ref.Val {
	if it.i >= len(it.vals) {
		return nil
	}
	v := it.vals[it.i]
	it.i++
	return v
}
