package celval

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
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
	value.KindDynamic: celUnknown,
	value.KindString:  types.NewUnknown(0, nil),
	value.KindNumber:  types.NewUnknown(0, nil),
	value.KindBool:    types.NewUnknown(0, nil),
}

// compoundUnknowns are the CEL unknowns of list, set, map, object and
// tuple types, made the first time each type is seen (by typeKey) and
// kept: templates and Terraform send few distinct types. Past
// maxCompoundUnknowns types, a new one is dynamic in CEL.
var compoundUnknowns = struct {
	sync.RWMutex
	byKey map[string]ref.Val
	byVal map[ref.Val]value.Type
}{byKey: map[string]ref.Val{}, byVal: map[ref.Val]value.Type{}}

const maxCompoundUnknowns = 4096

// UnknownOf gives the CEL unknown of type t.
func UnknownOf(t value.Type) ref.Val {
	if k := t.Kind(); int(k) < len(celUnknowns) {
		return celUnknowns[k]
	}
	key := typeKey(t)
	compoundUnknowns.RLock()
	u := compoundUnknowns.byKey[key]
	compoundUnknowns.RUnlock()
	if u != nil {
		return u
	}
	compoundUnknowns.Lock()
	defer compoundUnknowns.Unlock()
	if u = compoundUnknowns.byKey[key]; u != nil {
		return u
	}
	if len(compoundUnknowns.byKey) >= maxCompoundUnknowns {
		return celUnknown
	}
	u = types.NewUnknown(0, nil)
	compoundUnknowns.byKey[key] = u
	compoundUnknowns.byVal[u] = t
	return u
}

// typeKey writes t so that two types have the same key exactly when they
// are equal (attribute names are quoted).
func typeKey(t value.Type) string {
	var b strings.Builder
	writeTypeKey(&b, t)
	return b.String()
}

func writeTypeKey(b *strings.Builder, t value.Type) {
	b.WriteByte(byte('0' + t.Kind()))
	switch t.Kind() {
	case value.KindList, value.KindSet, value.KindMap:
		writeTypeKey(b, t.Elem())
	case value.KindTuple:
		for _, e := range t.Elems() {
			writeTypeKey(b, e)
		}
		b.WriteByte(';')
	case value.KindObject:
		for _, n := range t.AttributeNames() {
			b.WriteString(strconv.Quote(n))
			at, _ := t.Attribute(n)
			writeTypeKey(b, at)
		}
		b.WriteByte(';')
	}
}

// UnknownType gives the type of a CEL unknown: the type whose value it is,
// dynamic for any other (one that CEL merged from several, for one).
func UnknownType(u ref.Val) value.Type {
	for k, x := range celUnknowns {
		if x == u {
			switch value.Kind(k) { //nolint:gosec // an index of celUnknowns
			case value.KindString:
				return value.TypeString
			case value.KindNumber:
				return value.TypeNumber
			case value.KindBool:
				return value.TypeBool
			}
			return value.TypeDynamic
		}
	}
	compoundUnknowns.RLock()
	t, found := compoundUnknowns.byVal[u]
	compoundUnknowns.RUnlock()
	if found {
		return t
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

// MaxConvertNodes bounds how many nodes one FromCEL or Stringify call may
// visit, so a value whose lists share structure (a list holding the same
// list twice, nested thirty times) cannot expand without end.
const MaxConvertNodes = 2_000_000

// ErrTooLarge is the error for a value of more than MaxConvertNodes nodes.
var ErrTooLarge = errors.New("the value is too large: it has more than 2000000 nodes, the most one CEL value may hold (reference §7)")

// errNonFinite is the error for a NaN or infinite double that would become
// part of the output: neither JSON nor a Terraform number can hold one.
var errNonFinite = errors.New("the result holds a NaN or infinite double (a division by zero?), which JSON and Terraform numbers cannot hold")

// fromCELState is what one conversion out of CEL carries down the tree.
type fromCELState struct {
	budget int  // nodes left to visit (MaxConvertNodes at the start)
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
	return convertFromCEL(v, &fromCELState{budget: MaxConvertNodes})
}

// FromCELOutput is FromCEL for a value that becomes part of the output, as
// an exact $eval's result does: a NaN or infinite double anywhere in it is
// errNonFinite. (Engine values that CEL only wraps hold none: template
// literals refuse them, see scalarValue.)
func FromCELOutput(v ref.Val) (val value.Value, present bool, err error) {
	return convertFromCEL(v, &fromCELState{budget: MaxConvertNodes, output: true})
}

func convertFromCEL(v ref.Val, st *fromCELState) (value.Value, bool, error) {
	st.budget--
	if st.budget < 0 {
		return nil, false, ErrTooLarge
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
		return value.UnknownOf(UnknownType(v)), true, nil
	case *types.Optional:
		if !v.HasValue() {
			return nil, false, nil
		}
		st.built = true // a value CEL wrapped, as in a list
		return convertFromCEL(v.GetValue(), st)
	case *types.Err:
		return nil, false, errors.New(Sanitize(v.Error()))
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
		return "", ErrValueUnknown
	case *types.Err:
		return "", errors.New(Sanitize(v.Error()))
	case traits.Mapper, traits.Lister:
		val, _, err := FromCEL(v)
		if err != nil {
			return "", err
		}
		budget := MaxConvertNodes
		if valueHoldsUnknown(val, &budget) {
			return "", ErrValueUnknown
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
