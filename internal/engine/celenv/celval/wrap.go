package celval

import (
	"errors"
	"reflect"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// celMap and celList: CEL views of the engine's maps and lists, converted
// element by element as CEL reads them (see convert.go).

// celMap is a CEL map over an engine *value.Map. Elements are converted when
// they are read.
type celMap struct{ m *value.Map }

var (
	_ traits.Mapper   = (*celMap)(nil)
	_ traits.Foldable = (*celMap)(nil)
	_ traits.Lister   = (*celList)(nil)
	_ traits.Foldable = (*celList)(nil)
)

// Find implements traits.Mapper.
func (c *celMap) Find(key ref.Val) (ref.Val, bool) {
	switch k := key.(type) {
	case types.String:
		v, ok := c.m.Get(string(k))
		if !ok {
			return nil, false
		}
		return ToCEL(v), true
	case *types.Unknown, *types.Err:
		return key, true
	}
	return nil, false
}

// Get implements traits.Indexer.
func (c *celMap) Get(key ref.Val) ref.Val {
	v, ok := c.Find(key)
	if !ok {
		return types.NewErr("no such key")
	}
	return v
}

// Contains implements traits.Container.
func (c *celMap) Contains(key ref.Val) ref.Val {
	switch k := key.(type) {
	case types.String:
		return types.Bool(c.m.Has(string(k)))
	case *types.Unknown, *types.Err:
		return key
	}
	return types.False
}

// Size implements traits.Sizer.
func (c *celMap) Size() ref.Val { return types.Int(c.m.Len()) }

// Iterator implements traits.Iterable; keys come in the map's order.
func (c *celMap) Iterator() traits.Iterator { return &keyIterator{keys: c.m.Keys()} }

// Fold implements traits.Foldable.
func (c *celMap) Fold(f traits.Folder) {
	for i := 0; i < c.m.Len(); i++ {
		k, v := c.m.At(i)
		if !f.FoldEntry(types.String(k), ToCEL(v)) {
			return
		}
	}
}

// Equal implements ref.Val with CEL's map equality.
func (c *celMap) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Mapper)
	if !ok {
		return types.False
	}
	if o.Size() != c.Size() {
		return types.False
	}
	for i := 0; i < c.m.Len(); i++ {
		k, v := c.m.At(i)
		ov, found := o.Find(types.String(k))
		if !found {
			return types.False
		}
		if types.Equal(ToCEL(v), ov) == types.False {
			return types.False
		}
	}
	return types.True
}

// ConvertToType implements ref.Val.
func (c *celMap) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.MapType:
		return c
	case types.TypeType:
		return types.MapType
	}
	return types.NewErr("type conversion error from 'map' to '%s'", t)
}

// ConvertToNative implements ref.Val by way of a cel-go map.
func (c *celMap) ConvertToNative(t reflect.Type) (any, error) {
	if t == reflect.TypeOf(c) {
		return c, nil
	}
	vals := make(map[ref.Val]ref.Val, c.m.Len())
	for i := 0; i < c.m.Len(); i++ {
		k, v := c.m.At(i)
		vals[types.String(k)] = ToCEL(v)
	}
	return types.NewRefValMap(types.DefaultTypeAdapter, vals).ConvertToNative(t)
}

// Type implements ref.Val.
func (c *celMap) Type() ref.Type { return types.MapType }

// value.Value implements ref.Val.
func (c *celMap) Value() any { return c.m }

// IsZeroValue reports an empty map, as CEL's own maps do, so that
// optional.ofNonZeroValue treats a map from the variables like one CEL
// built.
func (c *celMap) IsZeroValue() bool { return c.m.Len() == 0 }

// celList is a CEL list over an engine []value.Value.
type celList struct{ l []value.Value }

// Get implements traits.Indexer.
func (c *celList) Get(index ref.Val) ref.Val {
	if types.IsUnknownOrError(index) {
		return index
	}
	i, err := types.IndexOrError(index)
	if err != nil {
		return types.NewErr("%v", err)
	}
	if i < 0 || i >= len(c.l) {
		return types.NewErr("index out of range")
	}
	return ToCEL(c.l[i])
}

// Contains implements traits.Container.
func (c *celList) Contains(el ref.Val) ref.Val {
	for _, v := range c.l {
		if b, ok := el.Equal(ToCEL(v)).(types.Bool); ok && b == types.True {
			return types.True
		}
	}
	return types.False
}

// Add implements traits.Adder: list concatenation.
func (c *celList) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if oc, ok := o.(*celList); ok {
		out := make([]value.Value, 0, len(c.l)+len(oc.l))
		out = append(out, c.l...)
		return &celList{l: append(out, oc.l...)}
	}
	n, _ := o.Size().(types.Int)
	out := make([]ref.Val, 0, len(c.l)+int(n))
	for _, v := range c.l {
		out = append(out, ToCEL(v))
	}
	for it := o.Iterator(); it.HasNext() == types.True; {
		out = append(out, it.Next())
	}
	return types.NewRefValList(types.DefaultTypeAdapter, out)
}

// Size implements traits.Sizer.
func (c *celList) Size() ref.Val { return types.Int(len(c.l)) }

// Iterator implements traits.Iterable.
func (c *celList) Iterator() traits.Iterator { return &listIterator{l: c.l} }

// Fold implements traits.Foldable.
func (c *celList) Fold(f traits.Folder) {
	for i, v := range c.l {
		if !f.FoldEntry(types.Int(i), ToCEL(v)) {
			return
		}
	}
}

// Equal implements ref.Val with CEL's list equality.
func (c *celList) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.False
	}
	if o.Size() != c.Size() {
		return types.False
	}
	for i, v := range c.l {
		if types.Equal(ToCEL(v), o.Get(types.Int(i))) == types.False {
			return types.False
		}
	}
	return types.True
}

// ConvertToType implements ref.Val.
func (c *celList) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.ListType:
		return c
	case types.TypeType:
		return types.ListType
	}
	return types.NewErr("type conversion error from 'list' to '%s'", t)
}

// ConvertToNative implements ref.Val by way of a cel-go list.
func (c *celList) ConvertToNative(t reflect.Type) (any, error) {
	if t == reflect.TypeOf(c) {
		return c, nil
	}
	vals := make([]ref.Val, len(c.l))
	for i, v := range c.l {
		vals[i] = ToCEL(v)
	}
	return types.NewRefValList(types.DefaultTypeAdapter, vals).ConvertToNative(t)
}

// Type implements ref.Val.
func (c *celList) Type() ref.Type { return types.ListType }

// value.Value implements ref.Val.
func (c *celList) Value() any { return c.l }

// IsZeroValue reports an empty list, as CEL's own lists do.
func (c *celList) IsZeroValue() bool { return len(c.l) == 0 }

// iterBase gives the iterators the ref.Val methods they must carry.
type iterBase struct{}

func (iterBase) ConvertToNative(reflect.Type) (any, error) {
	return nil, errors.New("type conversion on iterators not supported")
}
func (iterBase) ConvertToType(ref.Type) ref.Val { return types.NewErr("no such overload") }
func (iterBase) Equal(ref.Val) ref.Val          { return types.NewErr("no such overload") }
func (iterBase) Type() ref.Type                 { return types.IteratorType }
func (iterBase) Value() any                     { return nil }

type keyIterator struct {
	iterBase
	keys []string
	i    int
}

func (it *keyIterator) HasNext() ref.Val { return types.Bool(it.i < len(it.keys)) }
func (it *keyIterator) Next() ref.Val {
	if it.i >= len(it.keys) {
		return nil
	}
	k := it.keys[it.i]
	it.i++
	return types.String(k)
}

type listIterator struct {
	iterBase
	l []value.Value
	i int
}

func (it *listIterator) HasNext() ref.Val { return types.Bool(it.i < len(it.l)) }
func (it *listIterator) Next() ref.Val {
	if it.i >= len(it.l) {
		return nil
	}
	v := it.l[it.i]
	it.i++
	return ToCEL(v)
}

// AsMap gives the engine map a CEL value wraps, when it wraps one: a map
// from the template or the caller's variables, read without conversion.
func AsMap(v ref.Val) (*value.Map, bool) {
	m, ok := v.(*celMap)
	if !ok {
		return nil, false
	}
	return m.m, true
}

// AsList gives the engine list a CEL value wraps, when it wraps one.
func AsList(v ref.Val) ([]value.Value, bool) {
	l, ok := v.(*celList)
	if !ok {
		return nil, false
	}
	return l.l, true
}
