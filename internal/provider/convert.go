package provider

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// This file converts values between Terraform (terraform-plugin-framework
// attr.Values) and the engine (engine.Value).
//
// Terraform → engine:
//   - objects and maps become *engine.Map with sorted keys;
//   - lists, tuples and sets become []engine.Value;
//   - numbers become int64 when whole and within 64 bits, float64 otherwise,
//     and integers never pass through float64;
//   - null becomes nil, and an unknown value at any depth becomes
//     engine.Unknown{}.
//
// engine → Terraform:
//   - *engine.Map becomes an object and []engine.Value a tuple, because a
//     dynamic value cannot be the element of a collection;
//   - int64 and float64 become exact numbers;
//   - engine.Unknown{} becomes an unknown dynamic value inside otherwise
//     known objects and tuples.
//
// Error messages name kinds and paths, never values.

// toEngine converts a Terraform value to an engine value.
func toEngine(ctx context.Context, v attr.Value) (engine.Value, error) {
	if v == nil || v.IsNull() {
		return nil, nil
	}
	if v.IsUnknown() {
		return engine.Unknown{}, nil
	}
	switch tv := v.(type) {
	case basetypes.DynamicValue:
		return toEngine(ctx, tv.UnderlyingValue())
	case basetypes.StringValue:
		return tv.ValueString(), nil
	case basetypes.BoolValue:
		return tv.ValueBool(), nil
	case basetypes.NumberValue:
		return numberToEngine(tv.ValueBigFloat())
	case basetypes.Int64Value:
		return tv.ValueInt64(), nil
	case basetypes.Int32Value:
		return int64(tv.ValueInt32()), nil
	case basetypes.Float64Value:
		return tv.ValueFloat64(), nil
	case basetypes.Float32Value:
		return float64(tv.ValueFloat32()), nil
	case basetypes.ObjectValue:
		return mapToEngine(ctx, tv.Attributes())
	case basetypes.MapValue:
		return mapToEngine(ctx, tv.Elements())
	case basetypes.ListValue:
		return listToEngine(ctx, tv.Elements())
	case basetypes.TupleValue:
		return listToEngine(ctx, tv.Elements())
	case basetypes.SetValue:
		return listToEngine(ctx, tv.Elements())
	}
	return nil, fmt.Errorf("unsupported Terraform value of type %s", v.Type(ctx))
}

// numberToEngine turns a Terraform number into int64 when it is whole and
// fits, exactly, and into float64 otherwise. A number beyond float64's
// range (Terraform numbers are arbitrary precision) is an error rather
// than an infinity; the message does not show the number.
func numberToEngine(f *big.Float) (engine.Value, error) {
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

func mapToEngine(ctx context.Context, attrs map[string]attr.Value) (engine.Value, error) {
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	m := engine.NewMap(len(keys))
	for _, k := range keys {
		ev, err := toEngine(ctx, attrs[k])
		if err != nil {
			return nil, err
		}
		m.Set(k, ev)
	}
	return m, nil
}

func listToEngine(ctx context.Context, elems []attr.Value) (engine.Value, error) {
	out := make([]engine.Value, len(elems))
	for i, e := range elems {
		ev, err := toEngine(ctx, e)
		if err != nil {
			return nil, err
		}
		out[i] = ev
	}
	return out, nil
}

// contextVars turns the context argument into the engine's variables.
// unknown reports that the context is wholly unknown, so that not even the
// variable names are known; the caller then returns an unknown result.
// An unknown object whose attribute names are known binds each name to
// engine.Unknown{}.
func contextVars(ctx context.Context, c types.Dynamic) (vars map[string]engine.Value, unknown bool, err error) {
	if c.IsNull() {
		return map[string]engine.Value{}, false, nil
	}
	if c.IsUnknown() {
		return nil, true, nil
	}
	u := c.UnderlyingValue()
	if u == nil || u.IsNull() {
		return map[string]engine.Value{}, false, nil
	}
	switch tv := u.(type) {
	case basetypes.ObjectValue:
		if tv.IsUnknown() {
			vars = make(map[string]engine.Value, len(tv.AttributeTypes(ctx)))
			for name := range tv.AttributeTypes(ctx) {
				vars[name] = engine.Unknown{}
			}
			return vars, false, nil
		}
		return attrsToVars(ctx, tv.Attributes())
	case basetypes.MapValue:
		if tv.IsUnknown() {
			return nil, true, nil
		}
		return attrsToVars(ctx, tv.Elements())
	}
	return nil, false, fmt.Errorf("context must be an object or a map, whose attributes become variables; got %s", typeName(u))
}

func attrsToVars(ctx context.Context, attrs map[string]attr.Value) (map[string]engine.Value, bool, error) {
	vars := make(map[string]engine.Value, len(attrs))
	for name, v := range attrs {
		ev, err := toEngine(ctx, v)
		if err != nil {
			return nil, false, fmt.Errorf("context.%s: %w", name, err)
		}
		vars[name] = ev
	}
	return vars, false, nil
}

// fromEngine converts an engine value to a Terraform value with a concrete
// type, except that engine.Unknown{} becomes types.DynamicUnknown() and nil
// becomes types.DynamicNull(): both can sit in an object attribute or tuple
// element of dynamic type.
func fromEngine(v engine.Value) (attr.Value, error) {
	switch tv := v.(type) {
	case nil:
		return types.DynamicNull(), nil
	case engine.Unknown:
		return types.DynamicUnknown(), nil
	case bool:
		return types.BoolValue(tv), nil
	case string:
		return types.StringValue(tv), nil
	case int64:
		return types.NumberValue(new(big.Float).SetInt64(tv)), nil
	case float64:
		if math.IsNaN(tv) || math.IsInf(tv, 0) {
			return nil, fmt.Errorf("a Terraform number cannot hold NaN or infinity")
		}
		return types.NumberValue(big.NewFloat(tv)), nil
	case *engine.Map:
		n := tv.Len()
		typs := make(map[string]attr.Type, n)
		vals := make(map[string]attr.Value, n)
		for i := 0; i < n; i++ {
			k, ev := tv.At(i)
			av, err := fromEngine(ev)
			if err != nil {
				return nil, err
			}
			typs[k] = av.Type(context.Background())
			vals[k] = av
		}
		obj, diags := types.ObjectValue(typs, vals)
		if diags.HasError() {
			return nil, fmt.Errorf("building an object: %s", diagsText(diags))
		}
		return obj, nil
	case []engine.Value:
		typs := make([]attr.Type, len(tv))
		vals := make([]attr.Value, len(tv))
		for i, ev := range tv {
			av, err := fromEngine(ev)
			if err != nil {
				return nil, err
			}
			typs[i] = av.Type(context.Background())
			vals[i] = av
		}
		tup, diags := types.TupleValue(typs, vals)
		if diags.HasError() {
			return nil, fmt.Errorf("building a tuple: %s", diagsText(diags))
		}
		return tup, nil
	}
	if v == engine.UnknownStream {
		return types.DynamicUnknown(), nil
	}
	return nil, fmt.Errorf("the engine returned a value of unexpected Go type %T", v)
}

// toDynamic wraps a value from fromEngine in a types.Dynamic, which must not
// wrap another dynamic value.
func toDynamic(v attr.Value) types.Dynamic {
	if d, ok := v.(basetypes.DynamicValue); ok {
		return d
	}
	return types.DynamicValue(v)
}

// tupleOf builds a tuple of already converted values.
func tupleOf(vals []attr.Value) (attr.Value, error) {
	typs := make([]attr.Type, len(vals))
	for i, v := range vals {
		typs[i] = v.Type(context.Background())
	}
	tup, diags := types.TupleValue(typs, vals)
	if diags.HasError() {
		return nil, fmt.Errorf("building a tuple: %s", diagsText(diags))
	}
	return tup, nil
}

// resultOf is the shape of `result` and of render(): the document itself
// when there is exactly one, otherwise a tuple of them.
func resultOf(docs []attr.Value) (attr.Value, error) {
	if len(docs) == 1 {
		return docs[0], nil
	}
	return tupleOf(docs)
}

// containsUnknown reports whether an engine value holds an unknown anywhere.
func containsUnknown(v engine.Value) bool {
	switch tv := v.(type) {
	case engine.Unknown:
		return true
	case *engine.Map:
		for i := 0; i < tv.Len(); i++ {
			if _, ev := tv.At(i); containsUnknown(ev) {
				return true
			}
		}
	case []engine.Value:
		for _, ev := range tv {
			if containsUnknown(ev) {
				return true
			}
		}
	default:
		return v == engine.UnknownStream
	}
	return false
}

// documentsToTerraform converts rendered documents once each. unknown is
// true for the unknown stream, whose number of documents is not known.
func documentsToTerraform(docs []engine.Value) (vals []attr.Value, unknown bool, err error) {
	if engine.IsUnknownStream(docs) {
		return nil, true, nil
	}
	vals = make([]attr.Value, len(docs))
	for i, d := range docs {
		if vals[i], err = fromEngine(d); err != nil {
			return nil, false, fmt.Errorf("document %d: %w", i, err)
		}
	}
	return vals, false, nil
}
