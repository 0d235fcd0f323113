package celenv

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/emit"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"go.yaml.in/yaml/v3"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// This file converts between engine values and CEL values.
//
// Going in (ToCEL), maps and lists are not copied: celMap and celList wrap
// the engine's *value.Map and []value.Value and convert an element only
// when CEL reads it, so binding a large variable costs nothing until it is used.
//
// Coming out (FromCEL), a wrapped value gives back the engine value it
// wraps, in its own key order; maps that CEL built are written with sorted
// keys. Values that YAML cannot hold become text (reference §6).

// celUnknown is the CEL form of value.Unknown{} (of dynamic type). cel-go
// never mutates an Unknown, so one value serves every conversion.
var celUnknown ref.Val = types.NewUnknown(0, nil)

// celUnknowns are the CEL forms of the unknowns of each type, by
// value.Type: one value each, told apart by identity, since a CEL unknown
// carries no type of its own. ToCEL gives them for engine unknowns and a
// program's result is one of them (Program.Eval types it), so an unknown
// keeps its type through a binding or a name read again.
//
// A CEL unknown found inside a list or map that CEL built is of dynamic
// type whatever its identity (FromCEL, Element): a call that reads an
// unknown argument gives that argument's unknown as its own result
// (size(s) gives s's unknown string, where an int will be), so inside a
// value that CEL built an unknown's identity says nothing about its type.
var celUnknowns = [...]ref.Val{
	value.TypeDynamic: celUnknown,
	value.TypeString:  types.NewUnknown(0, nil),
	value.TypeNumber:  types.NewUnknown(0, nil),
	value.TypeBool:    types.NewUnknown(0, nil),
}

// UnknownOf gives the CEL unknown of type t.
func UnknownOf(t value.Type) ref.Val {
	if int(t) < len(celUnknowns) {
		return celUnknowns[t]
	}
	return celUnknown
}

// unknownType gives the type of a CEL unknown: the type whose value it is,
// dynamic for any other (one that CEL merged from several, for one).
func unknownType(u ref.Val) value.Type {
	for t, x := range celUnknowns {
		if x == u {
			return value.Type(t) //nolint:gosec // an index of celUnknowns
		}
	}
	return value.TypeDynamic
}

// Element is an element of a list or map that CEL built, as a loop binds
// it: an unknown in it is of dynamic type (see celUnknowns).
func Element(v ref.Val) ref.Val {
	if _, ok := v.(*types.Unknown); ok {
		return celUnknown
	}
	return v
}

// maxConvertNodes bounds how many nodes one FromCEL or Stringify call may
// visit, so a value whose lists share structure (a list holding the same
// list twice, nested thirty times) cannot expand without end.
const maxConvertNodes = 2_000_000

var errTooLarge = errors.New("the value is too large: it has more than 2000000 nodes")

// errNonFinite is the error for a NaN or infinite double that would become
// part of the output: neither JSON nor a Terraform number can hold one.
var errNonFinite = errors.New("the result holds a NaN or infinite double (a division by zero?), which JSON and Terraform numbers cannot hold")

// fromCELState is what one conversion out of CEL carries down the tree.
type fromCELState struct {
	budget int  // nodes left to visit (maxConvertNodes at the start)
	output bool // the value becomes output: NaN and infinities are errors
	built  bool // inside a list or map that CEL built: unknowns are dynamic
}

// ToCEL converts an engine value to a CEL value.
func ToCEL(v value.Value) ref.Val {
	switch v := v.(type) {
	case nil:
		return types.NullValue
	case bool:
		return types.Bool(v)
	case int64:
		return types.Int(v)
	case float64:
		return types.Double(v)
	case string:
		return types.String(v)
	case *value.Map:
		return &celMap{m: v}
	case []value.Value:
		return &celList{l: v}
	case value.Unknown:
		return UnknownOf(v.Type)
	case int:
		return types.Int(v)
	}
	return types.NewErr("unsupported value type %T", v)
}

// FromCEL converts a CEL result to an engine value. present is false for
// optional.none(), which gives nothing.
func FromCEL(v ref.Val) (val value.Value, present bool, err error) {
	return convertFromCEL(v, &fromCELState{budget: maxConvertNodes})
}

// FromCELOutput is FromCEL for a value that becomes part of the output, as
// an exact $eval's result does: a NaN or infinite double anywhere in it is
// errNonFinite. (Engine values that CEL only wraps hold none: template
// literals refuse them, see scalarValue.)
func FromCELOutput(v ref.Val) (val value.Value, present bool, err error) {
	return convertFromCEL(v, &fromCELState{budget: maxConvertNodes, output: true})
}

func convertFromCEL(v ref.Val, st *fromCELState) (value.Value, bool, error) {
	st.budget--
	if st.budget < 0 {
		return nil, false, errTooLarge
	}
	switch v := v.(type) {
	case types.String:
		return string(v), true, nil
	case types.Int:
		return int64(v), true, nil
	case types.Bool:
		return bool(v), true, nil
	case types.Double:
		if st.output && (math.IsNaN(float64(v)) || math.IsInf(float64(v), 0)) {
			return nil, false, errNonFinite
		}
		return float64(v), true, nil
	case types.Null:
		return nil, true, nil
	case *celMap:
		return v.m, true, nil
	case *celList:
		return v.l, true, nil
	case types.Uint:
		if uint64(v) <= math.MaxInt64 {
			return int64(v), true, nil
		}
		return float64(v), true, nil
	case *types.Unknown:
		if st.built {
			return value.Unknown{}, true, nil
		}
		return value.UnknownOf(unknownType(v)), true, nil
	case *types.Optional:
		if !v.HasValue() {
			return nil, false, nil
		}
		st.built = true // a value CEL wrapped, as in a list
		return convertFromCEL(v.GetValue(), st)
	case *types.Err:
		return nil, false, errors.New(sanitizeMsg(v.Error()))
	case types.Bytes:
		return base64.StdEncoding.EncodeToString([]byte(v)), true, nil
	case types.Timestamp, types.Duration:
		s, _ := v.ConvertToType(types.StringType).(types.String)
		return string(s), true, nil
	case traits.Mapper:
		return mapFromCEL(v, st)
	case traits.Lister:
		return listFromCEL(v, st)
	}
	if s, ok := specialString(v); ok {
		return s, true, nil
	}
	if v == nil {
		return nil, false, errors.New("the expression gave no value")
	}
	return nil, false, errors.New("a value of type " + v.Type().TypeName() + " cannot be written out")
}

// specialString gives the text form of the CEL values that YAML cannot
// hold and that have no other home: Kubernetes quantities, URLs, IPs,
// CIDRs, semantic versions and formats, and type values.
func specialString(v ref.Val) (s string, ok bool) {
	switch v := v.(type) {
	case apiservercel.Format:
		return v.Name, true
	case *apiservercel.Format:
		return v.Name, true
	case ref.Type:
		return v.TypeName(), true
	}
	if v == nil || v.Type() == nil {
		return "", false
	}
	switch tn := v.Type().TypeName(); {
	case strings.HasPrefix(tn, "kubernetes."), tn == "net.IP", tn == "net.CIDR":
	default:
		return "", false
	}
	// Quantities, URLs, IPs, CIDRs and semvers, as values or pointers,
	// print through the Go value they embed.
	str, isStringer := v.(fmt.Stringer)
	if !isStringer {
		return "", false
	}
	defer func() {
		if recover() != nil {
			s, ok = "", false
		}
	}()
	return str.String(), true
}

func listFromCEL(l traits.Lister, st *fromCELState) (value.Value, bool, error) {
	st.built = true
	n, _ := l.Size().(types.Int)
	out := make([]value.Value, 0, int(n))
	for it := l.Iterator(); it.HasNext() == types.True; {
		el, present, err := convertFromCEL(it.Next(), st)
		if err != nil {
			return nil, false, err
		}
		if present {
			out = append(out, el)
		}
	}
	return out, true, nil
}

type celMapEntry struct {
	k string
	v ref.Val
}

func mapFromCEL(m traits.Mapper, st *fromCELState) (value.Value, bool, error) {
	st.built = true
	n, _ := m.Size().(types.Int)
	ents := make([]celMapEntry, 0, int(n))
	for it := m.Iterator(); it.HasNext() == types.True; {
		k := it.Next()
		ks, err := keyString(k)
		if err != nil {
			return nil, false, err
		}
		v, _ := m.Find(k)
		ents = append(ents, celMapEntry{ks, v})
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].k < ents[j].k })
	out := value.NewMap(len(ents))
	for i, e := range ents {
		if i > 0 && ents[i-1].k == e.k {
			return nil, false, errors.New("two keys of a map become the same string")
		}
		v, present, err := convertFromCEL(e.v, st)
		if err != nil {
			return nil, false, err
		}
		if present {
			out.Set(e.k, v)
		}
	}
	return out, true, nil
}

// keyString turns a CEL map key into a string key: strings as they are,
// ints, uints and bools in their text form.
func keyString(k ref.Val) (string, error) {
	switch k := k.(type) {
	case types.String:
		return string(k), nil
	case types.Int:
		return strconv.FormatInt(int64(k), 10), nil
	case types.Uint:
		return strconv.FormatUint(uint64(k), 10), nil
	case types.Bool:
		return strconv.FormatBool(bool(k)), nil
	}
	return "", errors.New("a map key of type " + k.Type().TypeName() + " cannot be written out")
}

// Stringify turns a segment's value into text for a mixed $eval string,
// following reference §3.
func Stringify(v ref.Val) (string, error) {
	switch v := v.(type) {
	case types.String:
		return string(v), nil
	case types.Int:
		return strconv.FormatInt(int64(v), 10), nil
	case types.Uint:
		return strconv.FormatUint(uint64(v), 10), nil
	case types.Bool:
		return strconv.FormatBool(bool(v)), nil
	case types.Double, types.Timestamp, types.Duration:
		s, _ := v.ConvertToType(types.StringType).(types.String)
		return string(s), nil
	case types.Null:
		return "null", nil
	case types.Bytes:
		return base64.StdEncoding.EncodeToString([]byte(v)), nil
	case *types.Optional:
		if !v.HasValue() {
			return "", nil
		}
		return Stringify(v.GetValue())
	case *types.Unknown:
		return "", errValueUnknown
	case *types.Err:
		return "", errors.New(sanitizeMsg(v.Error()))
	case traits.Mapper, traits.Lister:
		val, _, err := FromCEL(v)
		if err != nil {
			return "", err
		}
		budget := maxConvertNodes
		if valueHoldsUnknown(val, &budget) {
			return "", errValueUnknown
		}
		b, err := encodeJSON(val)
		if err != nil {
			return "", err
		}
		return string(b), nil
	}
	if s, ok := specialString(v); ok {
		return s, nil
	}
	if v == nil {
		return "", errors.New("the expression gave no value")
	}
	return "", errors.New("a value of type " + v.Type().TypeName() + " cannot be turned into text")
}

// maxHelperOutput caps the text that json.encode, yaml.encode and
// Stringify may build for one value.
const maxHelperOutput = 64 << 20

var (
	errOutputTooLarge = errors.New("the text would be larger than 64 MiB")
	errValueUnknown   = errors.New("the value is not known yet")
)

// encodeJSON writes v as compact JSON with sorted keys, no spaces and no
// HTML escaping, whole doubles as integers: AppendJSON's rules. It first
// makes sure the text stays under maxHelperOutput, so a value whose lists
// share structure cannot expand without end.
func encodeJSON(v value.Value) ([]byte, error) {
	size := 0
	if printedSizeExceeds(v, &size, maxHelperOutput) {
		return nil, errOutputTooLarge
	}
	return emit.AppendJSON(nil, v, true)
}

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

// ---------------------------------------------------------------------------
// Template helpers: json.encode/decode, yaml.encode/decode

func jsonEncodeFn(v ref.Val) ref.Val {
	val, present, err := FromCEL(v)
	if err != nil {
		return types.NewErr("json.encode: %s", err.Error())
	}
	if !present {
		val = nil
	}
	budget := maxConvertNodes
	if valueHoldsUnknown(val, &budget) {
		return celUnknown
	}
	b, err := encodeJSON(val)
	if err != nil {
		return types.NewErr("json.encode: %s", err.Error())
	}
	return types.String(b)
}

func yamlEncodeFn(v ref.Val) ref.Val {
	val, present, err := FromCEL(v)
	if err != nil {
		return types.NewErr("yaml.encode: %s", err.Error())
	}
	if !present {
		val = nil
	}
	budget := maxConvertNodes
	if valueHoldsUnknown(val, &budget) {
		return celUnknown
	}
	size := 0
	if printedSizeExceeds(val, &size, maxHelperOutput) {
		return types.NewErr("yaml.encode: %s", errOutputTooLarge.Error())
	}
	b, err := emit.AppendYAML(nil, val)
	if err != nil {
		return types.NewErr("yaml.encode: %s", err.Error())
	}
	return types.String(b)
}

// printedSizeExceeds adds roughly what v takes as text to *size and
// reports whether that passes limit. It stops as soon as it does.
func printedSizeExceeds(v value.Value, size *int, limit int) bool {
	*size += 4
	switch v := v.(type) {
	case string:
		*size += len(v)
	case *value.Map:
		for i := 0; i < v.Len() && *size <= limit; i++ {
			k, el := v.At(i)
			*size += len(k)
			printedSizeExceeds(el, size, limit)
		}
	case []value.Value:
		for i := 0; i < len(v) && *size <= limit; i++ {
			printedSizeExceeds(v[i], size, limit)
		}
	default:
		*size += 20
	}
	return *size > limit
}

func jsonDecodeFn(v ref.Val) ref.Val {
	s, ok := v.(types.String)
	if !ok {
		return types.NewErr("no such overload: json.decode(%s)", v.Type().TypeName())
	}
	val, err := decodeJSON(string(s))
	if err != nil {
		return types.NewErr("json.decode: %s", err.Error())
	}
	return ToCEL(val)
}

// decodeJSON parses one JSON value. Whole numbers that fit int64 become
// int64, other numbers float64; objects become maps with sorted keys.
func decodeJSON(s string) (value.Value, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	v, err := decodeJSONValue(dec, 0)
	if err != nil {
		return nil, jsonSyntaxError(dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("unexpected text after the JSON value at byte offset %d", dec.InputOffset())
	}
	return v, nil
}

// jsonSyntaxError describes err by position only: encoding/json messages
// quote the offending input, which may be a secret.
func jsonSyntaxError(dec *json.Decoder, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("invalid JSON at byte offset %d", se.Offset)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("invalid JSON: unexpected end of input")
	case errors.Is(err, errJSONDuplicateKey), errors.Is(err, errJSONTooDeep):
		return fmt.Errorf("%w (byte offset %d)", err, dec.InputOffset())
	}
	return fmt.Errorf("invalid JSON at byte offset %d", dec.InputOffset())
}

var (
	errJSONDuplicateKey = errors.New("duplicate key in a JSON object")
	errJSONTooDeep      = errors.New("JSON nested more than 10000 levels deep")
)

func decodeJSONValue(dec *json.Decoder, depth int) (value.Value, error) {
	if depth > 10000 {
		return nil, errJSONTooDeep
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return nil, nil
	case bool:
		return t, nil
	case string:
		return t, nil
	case json.Number:
		return jsonNumber(string(t)), nil
	case json.Delim:
		switch t {
		case '[':
			out := []value.Value{}
			for dec.More() {
				el, err := decodeJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				out = append(out, el)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return out, nil
		case '{':
			var ents []mapValueEntry
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				el, err := decodeJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				ents = append(ents, mapValueEntry{k, el})
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			sort.SliceStable(ents, func(i, j int) bool { return ents[i].k < ents[j].k })
			m := value.NewMap(len(ents))
			for i, e := range ents {
				if i > 0 && ents[i-1].k == e.k {
					return nil, errJSONDuplicateKey
				}
				m.Set(e.k, e.v)
			}
			return m, nil
		}
	}
	return nil, errors.New("invalid JSON")
}

type mapValueEntry struct {
	k string
	v value.Value
}

// jsonNumber converts a JSON number: int64 when it is an integer literal
// that fits, float64 otherwise.
func jsonNumber(s string) value.Value {
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i
		}
	}
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

func yamlDecodeFn(v ref.Val) ref.Val {
	s, ok := v.(types.String)
	if !ok {
		return types.NewErr("no such overload: yaml.decode(%s)", v.Type().TypeName())
	}
	val, err := decodeYAML(string(s))
	if err != nil {
		return types.NewErr("yaml.decode: %s", err.Error())
	}
	return ToCEL(val)
}

// decodeYAML parses one YAML document the way templates are parsed.
func decodeYAML(s string) (value.Value, error) {
	dec := yaml.NewDecoder(strings.NewReader(s))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, nil
		}
		return nil, yamlSyntaxError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		if err != nil {
			return nil, yamlSyntaxError(err)
		}
		return nil, errors.New("the text holds more than one YAML document")
	}
	val, nerr := yamlnode.Plain(&doc)
	if nerr != nil {
		msg := nerr.Msg
		switch {
		case strings.HasPrefix(msg, "duplicate key"):
			msg = "duplicate key"
		case strings.HasPrefix(msg, "unsupported YAML tag"):
			msg = "unsupported YAML tag: only the core tags (!!str, !!int, !!float, !!bool, !!null, !!map, !!seq) are allowed"
		}
		if nerr.Node != nil && nerr.Node.Line > 0 {
			return nil, fmt.Errorf("line %d: %s", nerr.Node.Line, msg)
		}
		return nil, errors.New(msg)
	}
	return val, nil
}

// yamlSyntaxError keeps yaml.v3's line number and drops the rest, which
// may quote the input.
func yamlSyntaxError(err error) error {
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		rest := msg[i+len("line "):]
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j > 0 {
			return fmt.Errorf("invalid YAML at line %s", rest[:j])
		}
	}
	return errors.New("invalid YAML")
}

// TypeName names the type of a CEL value for messages: "nothing" for no
// value, "unknown" for a value not known yet.
func TypeName(v ref.Val) string {
	if v == nil {
		return "nothing"
	}
	switch v.(type) {
	case *types.Unknown:
		return "unknown"
	}
	return v.Type().TypeName()
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

// deepMergeFn is deepMerge(base, over): the merge rule of reference §9.
// The result is a map that CEL built, so it is written with sorted keys
// (reference §6) wherever it ends up.
func deepMergeFn(base, over ref.Val) ref.Val {
	b, present, err := FromCEL(base)
	if err != nil {
		return types.NewErr("deepMerge: %s", err.Error())
	}
	if !present {
		b = nil
	}
	o, present, err := FromCEL(over)
	if err != nil {
		return types.NewErr("deepMerge: %s", err.Error())
	}
	if !present {
		o = nil
	}
	out := merge.Patch(b, o)
	if _, unknown := out.(value.Unknown); unknown {
		return celUnknown
	}
	return ToCEL(withSortedKeys(out))
}

// withSortedKeys rebuilds v, a value that merge.Patch made and nothing else
// holds, with every mapping's keys in sorted order.
func withSortedKeys(v value.Value) value.Value {
	switch x := v.(type) {
	case *value.Map:
		keys := x.Keys()
		order := emit.SortedOrder(keys)
		out := value.NewMap(x.Len())
		for n := range keys {
			i := n
			if order != nil {
				i = order[n]
			}
			k, e := x.At(i)
			out.Set(k, withSortedKeys(e))
		}
		return out
	case []value.Value:
		for i, e := range x {
			x[i] = withSortedKeys(e)
		}
	}
	return v
}
