package provider

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// This file converts values between Terraform (tftypes.Value, the values of
// the plugin protocol) and the engine (value.Value).
//
// Terraform → engine:
//   - objects and maps become *value.Map with sorted keys;
//   - lists, tuples and sets become []value.Value;
//   - numbers become int64 when whole and within 64 bits, float64 otherwise,
//     and integers never pass through float64;
//   - null becomes nil, and an unknown value at any depth an value.Unknown
//     of its whole type (primitives, collections, objects and tuples).
//
// engine → Terraform:
//   - *value.Map becomes an object and []value.Value a tuple, because a
//     dynamic value cannot be the element of a collection;
//   - int64 and float64 become exact numbers;
//   - nil becomes a null and an value.Unknown an unknown value of the
//     type value.Type.Written gives (string, number, bool, or dynamic for
//     any other: a known list is written as a tuple and a map as an
//     object, so no collection type would hold at apply), inside otherwise known objects and
//     tuples: resources that convert a value to a schema, such as
//     kubernetes_manifest, refuse an unknown of dynamic type where they
//     expect a string (the unknown-values guide).
//
// Both the data source and the functions convert here, directly between
// protocol values and engine values (see server.go). Error messages name
// kinds and paths, never values.

// toEngine converts a Terraform value to an engine value.
func toEngine(v tftypes.Value) (value.Value, error) {
	if !v.IsKnown() {
		return value.UnknownOf(unknownType(v.Type())), nil
	}
	if v.IsNull() {
		return nil, nil
	}
	typ := v.Type()
	switch {
	case typ.Is(tftypes.String):
		var s string
		err := v.As(&s)
		return s, err
	case typ.Is(tftypes.Bool):
		var b bool
		err := v.As(&b)
		return b, err
	case typ.Is(tftypes.Number):
		f := new(big.Float)
		if err := v.As(&f); err != nil {
			return nil, err
		}
		return numberToEngine(f)
	case typ.Is(tftypes.Object{}), typ.Is(tftypes.Map{}):
		var attrs map[string]tftypes.Value
		if err := v.As(&attrs); err != nil {
			return nil, err
		}
		return mapToEngine(attrs)
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}), typ.Is(tftypes.Tuple{}):
		var elems []tftypes.Value
		if err := v.As(&elems); err != nil {
			return nil, err
		}
		out := make([]value.Value, len(elems))
		for i, e := range elems {
			ev, err := toEngine(e)
			if err != nil {
				return nil, err
			}
			out[i] = ev
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported Terraform value of type %s", typ)
}

// numberToEngine turns a Terraform number into int64 when it is whole and
// fits, exactly, and into float64 otherwise. A number beyond float64's
// range (Terraform numbers are arbitrary precision) is an error rather
// than an infinity; the message does not show the number.
func numberToEngine(f *big.Float) (value.Value, error) {
	if f == nil {
		return nil, nil
	}
	if f.IsInt() {
		if i, acc := f.Int64(); acc == big.Exact {
			return i, nil
		}
	}
	x, _ := f.Float64()
	if math.IsInf(x, 0) {
		return nil, fmt.Errorf("a number is too large for a CEL double (beyond ±1.8e308)")
	}
	return x, nil
}

func mapToEngine(attrs map[string]tftypes.Value) (value.Value, error) {
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	m := value.NewMap(len(keys))
	for _, k := range keys {
		ev, err := toEngine(attrs[k])
		if err != nil {
			return nil, err
		}
		m.Set(k, ev)
	}
	return m, nil
}

// contextVars turns the context argument into the engine's variables.
// unknown reports that the context is wholly unknown, so that not even the
// variable names are known; the caller then returns an unknown result.
// An unknown object whose attribute names are known binds each name to an
// value.Unknown of the attribute's type.
func contextVars(c tftypes.Value) (vars map[string]value.Value, unknown bool, err error) {
	if c.IsNull() {
		return map[string]value.Value{}, false, nil
	}
	typ := c.Type()
	obj, isObject := typ.(tftypes.Object)
	if !c.IsKnown() {
		if isObject {
			names := obj.AttributeTypes
			vars = make(map[string]value.Value, len(names))
			for name, t := range names {
				vars[name] = value.UnknownOf(unknownType(t))
			}
			return vars, false, nil
		}
		return nil, true, nil
	}
	if !isObject && !typ.Is(tftypes.Map{}) {
		return nil, false, fmt.Errorf("context must be an object or a map, whose attributes become variables; got %s", typeName(c))
	}
	var attrs map[string]tftypes.Value
	if err := c.As(&attrs); err != nil {
		return nil, false, err
	}
	vars = make(map[string]value.Value, len(attrs))
	for name, v := range attrs {
		ev, err := toEngine(v)
		if err != nil {
			return nil, false, fmt.Errorf("context.%s: %w", name, err)
		}
		vars[name] = ev
	}
	return vars, false, nil
}

// typeName names the kind of a Terraform value for error messages.
func typeName(v tftypes.Value) string {
	typ := v.Type()
	switch {
	case typ.Is(tftypes.String):
		return "a string"
	case typ.Is(tftypes.Number):
		return "a number"
	case typ.Is(tftypes.Bool):
		return "a bool"
	case typ.Is(tftypes.Object{}), typ.Is(tftypes.Map{}):
		return "an object"
	case typ.Is(tftypes.Tuple{}), typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}):
		return "a list"
	}
	return "a value of type " + typ.String()
}

var (
	dynamicNull    = tftypes.NewValue(tftypes.DynamicPseudoType, nil)
	dynamicUnknown = tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue)
	// primitiveUnknowns are the Terraform unknowns of each primitive kind.
	primitiveUnknowns = [...]tftypes.Value{
		value.KindDynamic: dynamicUnknown,
		value.KindString:  tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		value.KindNumber:  tftypes.NewValue(tftypes.Number, tftypes.UnknownValue),
		value.KindBool:    tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue),
	}
)

// unknownType is the engine type of an unknown Terraform value of type t,
// all of it: primitives, lists, sets, maps, objects and tuples, nested
// (optional attributes are attributes like any other).
func unknownType(t tftypes.Type) value.Type {
	switch tt := t.(type) {
	case nil:
	case tftypes.List:
		return value.ListOf(unknownType(tt.ElementType))
	case tftypes.Set:
		return value.SetOf(unknownType(tt.ElementType))
	case tftypes.Map:
		return value.MapOf(unknownType(tt.ElementType))
	case tftypes.Tuple:
		elems := make([]value.Type, len(tt.ElementTypes))
		for i, e := range tt.ElementTypes {
			elems[i] = unknownType(e)
		}
		return value.TupleOf(elems...)
	case tftypes.Object:
		attrs := make(map[string]value.Type, len(tt.AttributeTypes))
		for n, at := range tt.AttributeTypes {
			attrs[n] = unknownType(at)
		}
		return value.ObjectOf(attrs)
	default:
		switch {
		case t.Is(tftypes.String):
			return value.TypeString
		case t.Is(tftypes.Number):
			return value.TypeNumber
		case t.Is(tftypes.Bool):
			return value.TypeBool
		}
	}
	return value.TypeDynamic
}

// unknownOf is the Terraform unknown of an engine unknown's type.
func unknownOf(u value.Unknown) tftypes.Value {
	return primitiveUnknowns[u.Type.Written().Kind()]
}

// fromEngine converts an engine value to a Terraform value with a concrete
// type, except that nil becomes a null of dynamic type and an
// value.Unknown an unknown of its own type, dynamic when nothing typed
// it: each can sit in an object attribute or tuple element.
func fromEngine(v value.Value) (tftypes.Value, error) {
	switch tv := v.(type) {
	case nil:
		return dynamicNull, nil
	case value.Unknown:
		return unknownOf(tv), nil
	case bool:
		return tftypes.NewValue(tftypes.Bool, tv), nil
	case string:
		return tftypes.NewValue(tftypes.String, tv), nil
	case int64:
		return tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(tv)), nil
	case float64:
		if math.IsNaN(tv) || math.IsInf(tv, 0) {
			return tftypes.Value{}, errors.New("a Terraform number cannot hold NaN or infinity")
		}
		return tftypes.NewValue(tftypes.Number, big.NewFloat(tv)), nil
	case *value.Map:
		n := tv.Len()
		typs := make(map[string]tftypes.Type, n)
		vals := make(map[string]tftypes.Value, n)
		for i := 0; i < n; i++ {
			k, ev := tv.At(i)
			x, err := fromEngine(ev)
			if err != nil {
				return tftypes.Value{}, err
			}
			typs[k] = x.Type()
			vals[k] = x
		}
		return tftypes.NewValue(tftypes.Object{AttributeTypes: typs}, vals), nil
	case []value.Value:
		vals := make([]tftypes.Value, len(tv))
		for i, ev := range tv {
			x, err := fromEngine(ev)
			if err != nil {
				return tftypes.Value{}, err
			}
			vals[i] = x
		}
		return tupleOf(vals), nil
	}
	if v == value.UnknownStream {
		return dynamicUnknown, nil
	}
	return tftypes.Value{}, fmt.Errorf("the engine returned a value of unexpected Go type %T", v)
}

// tupleOf builds a tuple of already converted values.
func tupleOf(vals []tftypes.Value) tftypes.Value {
	typs := make([]tftypes.Type, len(vals))
	for i, v := range vals {
		typs[i] = v.Type()
	}
	return tftypes.NewValue(tftypes.Tuple{ElementTypes: typs}, vals)
}

// resultOf is the shape of `result` and of render(): the document itself
// when there is exactly one, otherwise a tuple of them.
func resultOf(docs []tftypes.Value) tftypes.Value {
	if len(docs) == 1 {
		return docs[0]
	}
	return tupleOf(docs)
}

// containsUnknown reports whether an engine value holds an unknown anywhere.
func containsUnknown(v value.Value) bool {
	switch tv := v.(type) {
	case value.Unknown:
		return true
	case *value.Map:
		for i := 0; i < tv.Len(); i++ {
			if _, ev := tv.At(i); containsUnknown(ev) {
				return true
			}
		}
	case []value.Value:
		for _, ev := range tv {
			if containsUnknown(ev) {
				return true
			}
		}
	default:
		return v == value.UnknownStream
	}
	return false
}

// documentsToTerraform converts rendered documents once each. unknown is
// true for the unknown stream, whose number of documents is not known.
func documentsToTerraform(docs []value.Value) (vals []tftypes.Value, unknown bool, err error) {
	if value.IsUnknownStream(docs) {
		return nil, true, nil
	}
	vals = make([]tftypes.Value, len(docs))
	for i, d := range docs {
		if vals[i], err = fromEngine(d); err != nil {
			return nil, false, fmt.Errorf("document %d: %w", i, err)
		}
	}
	return vals, false, nil
}
