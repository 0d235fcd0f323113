package provider

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// dumpEngine writes an engine value with its Go kinds, so that tests can
// compare int64 against float64 exactly.
func dumpEngine(v value.Value) string {
	var b strings.Builder
	var walk func(v value.Value)
	walk = func(v value.Value) {
		switch tv := v.(type) {
		case nil:
			b.WriteString("null")
		case value.Unknown:
			b.WriteString("unknown")
		case bool:
			fmt.Fprintf(&b, "%t", tv)
		case int64:
			fmt.Fprintf(&b, "int(%d)", tv)
		case float64:
			fmt.Fprintf(&b, "double(%v)", tv)
		case string:
			fmt.Fprintf(&b, "%q", tv)
		case *value.Map:
			b.WriteString("{")
			for i := 0; i < tv.Len(); i++ {
				k, ev := tv.At(i)
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%s: ", k)
				walk(ev)
			}
			b.WriteString("}")
		case []value.Value:
			b.WriteString("[")
			for i, ev := range tv {
				if i > 0 {
					b.WriteString(", ")
				}
				walk(ev)
			}
			b.WriteString("]")
		default:
			fmt.Fprintf(&b, "<%T>", tv)
		}
	}
	walk(v)
	return b.String()
}

// dumpTerraform writes a Terraform value with its kinds; object attributes
// in sorted order.
func dumpTerraform(v attr.Value) string {
	var b strings.Builder
	var walk func(v attr.Value)
	walk = func(v attr.Value) {
		if v.IsUnknown() {
			fmt.Fprintf(&b, "unknown(%s)", v.Type(context.Background()))
			return
		}
		if v.IsNull() {
			fmt.Fprintf(&b, "null(%s)", v.Type(context.Background()))
			return
		}
		switch tv := v.(type) {
		case basetypes.DynamicValue:
			b.WriteString("dynamic(")
			walk(tv.UnderlyingValue())
			b.WriteString(")")
		case basetypes.StringValue:
			fmt.Fprintf(&b, "%q", tv.ValueString())
		case basetypes.BoolValue:
			fmt.Fprintf(&b, "%t", tv.ValueBool())
		case basetypes.NumberValue:
			b.WriteString("number(" + tv.ValueBigFloat().Text('f', -1) + ")")
		case basetypes.ObjectValue:
			attrs := tv.Attributes()
			keys := make([]string, 0, len(attrs))
			for k := range attrs {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			b.WriteString("object{")
			for i, k := range keys {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(k + ": ")
				walk(attrs[k])
			}
			b.WriteString("}")
		case basetypes.TupleValue:
			b.WriteString("tuple[")
			for i, e := range tv.Elements() {
				if i > 0 {
					b.WriteString(", ")
				}
				walk(e)
			}
			b.WriteString("]")
		default:
			fmt.Fprintf(&b, "<%T>", tv)
		}
	}
	walk(v)
	return b.String()
}

// tfNumber parses a number the way Terraform sends it (512-bit precision).
func tfNumber(t *testing.T, s string) types.Number {
	t.Helper()
	f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	return types.NumberValue(f)
}

// tf converts a framework value to the protocol value Terraform would send.
func tf(v attr.Value) tftypes.Value { return must(v.ToTerraformValue(context.Background())) }

// fw converts a protocol value to a framework value, unwrapping a top-level
// dynamic value, so that tests can read and dump it.
func fw(v tftypes.Value) attr.Value {
	d := must(basetypes.DynamicType{}.ValueFromTerraform(context.Background(), v)).(basetypes.DynamicValue)
	if d.IsNull() || d.IsUnknown() {
		return d
	}
	return d.UnderlyingValue()
}

func mustToEngine(t *testing.T, v attr.Value) value.Value {
	t.Helper()
	ev, err := toEngine(tf(v))
	if err != nil {
		t.Fatalf("toEngine: %v", err)
	}
	return ev
}

func mustFromEngine(t *testing.T, v value.Value) attr.Value {
	t.Helper()
	tv, err := fromEngine(v)
	if err != nil {
		t.Fatalf("fromEngine: %v", err)
	}
	return fw(tv)
}

func TestToEngine_everyKind(t *testing.T) {
	obj := types.ObjectValueMust(
		map[string]attr.Type{
			"str": types.StringType, "yes": types.BoolType, "int": types.NumberType, "dbl": types.NumberType,
			"nul": types.StringType, "lst": types.ListType{ElemType: types.NumberType},
			"set": types.SetType{ElemType: types.StringType}, "map": types.MapType{ElemType: types.BoolType},
			"tup": types.TupleType{ElemTypes: []attr.Type{types.StringType, types.NumberType}},
			"dyn": types.DynamicType, "i64": types.Int64Type, "f64": types.Float64Type,
		},
		map[string]attr.Value{
			"str": types.StringValue("x"),
			"yes": types.BoolValue(true),
			"int": tfNumber(t, "42"),
			"dbl": tfNumber(t, "2.5"),
			"nul": types.StringNull(),
			"lst": types.ListValueMust(types.NumberType, []attr.Value{tfNumber(t, "1"), tfNumber(t, "-2")}),
			"set": types.SetValueMust(types.StringType, []attr.Value{types.StringValue("a")}),
			"map": types.MapValueMust(types.BoolType, map[string]attr.Value{"z": types.BoolValue(false), "a": types.BoolValue(true)}),
			"tup": types.TupleValueMust([]attr.Type{types.StringType, types.NumberType}, []attr.Value{types.StringValue("t"), tfNumber(t, "0.5")}),
			"dyn": types.DynamicValue(types.StringValue("d")),
			"i64": types.Int64Value(-7),
			"f64": types.Float64Value(1.25),
		})
	got := dumpEngine(mustToEngine(t, obj))
	want := `{dbl: double(2.5), dyn: "d", f64: double(1.25), i64: int(-7), int: int(42), lst: [int(1), int(-2)], ` +
		`map: {a: true, z: false}, nul: null, set: ["a"], str: "x", tup: ["t", double(0.5)], yes: true}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestToEngine_bigIntegerStaysExact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"9007199254740993", "int(9007199254740993)"},       // 2^53+1: not a float64
		{"9223372036854775807", "int(9223372036854775807)"}, // max int64
		{"-9223372036854775808", "int(-9223372036854775808)"},
		{"9223372036854775808", "double(9.223372036854776e+18)"}, // 2^63 does not fit
		{"18446744073709551616", "double(1.8446744073709552e+19)"},
		{"0.1", "double(0.1)"},
		{"-0", "int(0)"},
	} {
		if got := dumpEngine(mustToEngine(t, tfNumber(t, tc.in))); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestToEngine_unknownAtAnyDepth(t *testing.T) {
	inner := types.ObjectValueMust(map[string]attr.Type{"img": types.DynamicType, "n": types.NumberType},
		map[string]attr.Value{"img": types.DynamicUnknown(), "n": tfNumber(t, "1")})
	v := types.TupleValueMust(
		[]attr.Type{types.StringType, inner.Type(context.Background()), types.ListType{ElemType: types.StringType}},
		[]attr.Value{types.StringUnknown(), inner, types.ListUnknown(types.StringType)})
	if got, want := dumpEngine(mustToEngine(t, v)), "[unknown, {img: unknown, n: int(1)}, unknown]"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestToEngine_emptyCollections(t *testing.T) {
	v := types.ObjectValueMust(
		map[string]attr.Type{"l": types.ListType{ElemType: types.StringType}, "m": types.MapType{ElemType: types.StringType},
			"o": types.ObjectType{AttrTypes: map[string]attr.Type{}}, "t": types.TupleType{}, "s": types.SetType{ElemType: types.StringType}},
		map[string]attr.Value{
			"l": types.ListValueMust(types.StringType, nil),
			"m": types.MapValueMust(types.StringType, map[string]attr.Value{}),
			"o": types.ObjectValueMust(map[string]attr.Type{}, map[string]attr.Value{}),
			"t": types.TupleValueMust(nil, nil),
			"s": types.SetValueMust(types.StringType, nil),
		})
	if got, want := dumpEngine(mustToEngine(t, v)), "{l: [], m: {}, o: {}, s: [], t: []}"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestToEngine_deepNesting(t *testing.T) {
	const depth = 500
	var v attr.Value = types.StringValue("leaf")
	for i := 0; i < depth; i++ {
		v = types.ObjectValueMust(map[string]attr.Type{"a": v.Type(context.Background())}, map[string]attr.Value{"a": v})
	}
	ev := mustToEngine(t, v)
	for i := 0; i < depth; i++ {
		m, ok := ev.(*value.Map)
		if !ok {
			t.Fatalf("level %d: got %T", i, ev)
		}
		ev, _ = m.Get("a")
	}
	if ev != "leaf" {
		t.Fatalf("leaf: got %v", ev)
	}
}

func TestContextVars_nullMeansNoVariables(t *testing.T) {
	for _, c := range []types.Dynamic{types.DynamicNull(), types.DynamicValue(types.ObjectNull(map[string]attr.Type{}))} {
		vars, unknown, err := contextVars(tf(c))
		if err != nil || unknown || vars == nil || len(vars) != 0 {
			t.Fatalf("%s: got %v %v %v", c, vars, unknown, err)
		}
	}
}

func TestContextVars_emptyObject(t *testing.T) {
	vars, unknown, err := contextVars(tf(types.DynamicValue(types.ObjectValueMust(map[string]attr.Type{}, map[string]attr.Value{}))))
	if err != nil || unknown || len(vars) != 0 {
		t.Fatalf("got %v %v %v", vars, unknown, err)
	}
}

func TestContextVars_objectAndMap(t *testing.T) {
	obj := types.DynamicValue(types.ObjectValueMust(map[string]attr.Type{"env": types.StringType, "n": types.NumberType},
		map[string]attr.Value{"env": types.StringValue("prod"), "n": tfNumber(t, "3")}))
	vars, unknown, err := contextVars(tf(obj))
	if err != nil || unknown {
		t.Fatal(err, unknown)
	}
	if got := fmt.Sprintf("%s %s", dumpEngine(vars["env"]), dumpEngine(vars["n"])); got != `"prod" int(3)` || len(vars) != 2 {
		t.Fatalf("got %s (%d vars)", got, len(vars))
	}
	m := types.DynamicValue(types.MapValueMust(types.StringType, map[string]attr.Value{"a": types.StringValue("b")}))
	vars, _, err = contextVars(tf(m))
	if err != nil || vars["a"] != "b" || len(vars) != 1 {
		t.Fatalf("map: got %v %v", vars, err)
	}
}

func TestContextVars_whollyUnknown(t *testing.T) {
	for _, c := range []types.Dynamic{types.DynamicUnknown(), types.DynamicValue(types.MapUnknown(types.StringType))} {
		vars, unknown, err := contextVars(tf(c))
		if err != nil || !unknown || vars != nil {
			t.Fatalf("%s: got %v %v %v", c, vars, unknown, err)
		}
	}
}

func TestContextVars_unknownObjectBindsItsNames(t *testing.T) {
	c := types.DynamicValue(types.ObjectUnknown(map[string]attr.Type{"image": types.StringType, "env": types.StringType}))
	vars, unknown, err := contextVars(tf(c))
	if err != nil || unknown {
		t.Fatal(err, unknown)
	}
	if len(vars) != 2 || !isUnknown(vars["image"]) || !isUnknown(vars["env"]) {
		t.Fatalf("got %v", vars)
	}
}

func TestContextVars_notAnObject(t *testing.T) {
	_, _, err := contextVars(tf(types.DynamicValue(types.StringValue("s3cr3t-value"))))
	if err == nil {
		t.Fatal("no error")
	}
	want := "context must be an object or a map, whose attributes become variables; got a string"
	if err.Error() != want {
		t.Fatalf("got %q, want %q", err, want)
	}
}

func TestFromEngine_everyKind(t *testing.T) {
	m := value.NewMap(8)
	m.Set("str", "x")
	m.Set("yes", true)
	m.Set("int", int64(-5))
	m.Set("dbl", 2.5)
	m.Set("nul", nil)
	m.Set("lst", []value.Value{int64(1), "two", []value.Value{}})
	inner := value.NewMap(0)
	m.Set("obj", inner)
	m.Set("unk", value.Unknown{})
	got := dumpTerraform(mustFromEngine(t, m))
	want := `object{dbl: number(2.5), int: number(-5), lst: tuple[number(1), "two", tuple[]], nul: null(basetypes.DynamicType), ` +
		`obj: object{}, str: "x", unk: unknown(basetypes.DynamicType), yes: true}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestFromEngine_bigIntegerStaysExact(t *testing.T) {
	const n = int64(1)<<53 + 1
	v := mustFromEngine(t, n).(basetypes.NumberValue)
	if i, acc := v.ValueBigFloat().Int64(); i != n || acc != big.Exact {
		t.Fatalf("got %d (%v)", i, acc)
	}
	if got := v.ValueBigFloat().Text('f', 0); got != "9007199254740993" {
		t.Fatalf("got %s", got)
	}
	// and back again
	if got := dumpEngine(mustToEngine(t, v)); got != "int(9007199254740993)" {
		t.Fatalf("round trip: got %s", got)
	}
	minInt := mustFromEngine(t, int64(math.MinInt64)).(basetypes.NumberValue)
	if got := minInt.ValueBigFloat().Text('f', 0); got != "-9223372036854775808" {
		t.Fatalf("min int64: got %s", got)
	}
}

func TestFromEngine_roundTripEveryKind(t *testing.T) {
	m := value.NewMap(4)
	m.Set("a", []value.Value{int64(9007199254740993), 0.1, true, nil, "s"})
	sub := value.NewMap(1)
	sub.Set("k", int64(math.MaxInt64))
	m.Set("b", sub)
	back := mustToEngine(t, mustFromEngine(t, m))
	want := `{a: [int(9007199254740993), double(0.1), true, null, "s"], b: {k: int(9223372036854775807)}}`
	if got := dumpEngine(back); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestFromEngine_nanAndInfinityAreErrors(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := fromEngine([]value.Value{f})
		if err == nil || err.Error() != "a Terraform number cannot hold NaN or infinity" {
			t.Errorf("%v: got %v", f, err)
		}
	}
}

func TestFromEngine_unknownStreamIsUnknown(t *testing.T) {
	if v := mustFromEngine(t, value.UnknownStream); !v.IsUnknown() {
		t.Fatalf("got %s", v)
	}
}

func TestFromEngine_deepNesting(t *testing.T) {
	const depth = 500
	var v value.Value = int64(7)
	for i := 0; i < depth; i++ {
		v = []value.Value{v}
	}
	tv := mustFromEngine(t, v)
	for i := 0; i < depth; i++ {
		tv = tv.(basetypes.TupleValue).Elements()[0]
	}
	if got := dumpTerraform(tv); got != "number(7)" {
		t.Fatalf("got %s", got)
	}
}

// The result of a function travels as a msgpack DynamicValue of type
// dynamic. Unknown and null leaves inside known objects and tuples must
// survive that encoding.
func TestFromEngine_unknownLeavesEncodeForTheWire(t *testing.T) {
	m := value.NewMap(3)
	m.Set("image", value.Unknown{})
	m.Set("name", "cart")
	m.Set("opt", nil)
	m.Set("ports", []value.Value{int64(80), value.Unknown{}})
	tv, err := fromEngine(m)
	if err != nil {
		t.Fatal(err)
	}
	dv, err := tfprotov6.NewDynamicValue(tftypes.DynamicPseudoType, tv)
	if err != nil {
		t.Fatalf("encoding: %v", err)
	}
	back, err := dv.Unmarshal(tftypes.DynamicPseudoType)
	if err != nil {
		t.Fatalf("decoding: %v", err)
	}
	var attrs map[string]tftypes.Value
	if err := back.As(&attrs); err != nil {
		t.Fatal(err)
	}
	var name string
	if err := attrs["name"].As(&name); err != nil || name != "cart" {
		t.Fatalf("name: %q %v", name, err)
	}
	if attrs["image"].IsKnown() || !attrs["opt"].IsNull() {
		t.Fatalf("image known=%v, opt null=%v", attrs["image"].IsKnown(), attrs["opt"].IsNull())
	}
	var ports []tftypes.Value
	if err := attrs["ports"].As(&ports); err != nil || len(ports) != 2 || !ports[0].IsKnown() || ports[1].IsKnown() {
		t.Fatalf("ports: %v %v", ports, err)
	}
}

func TestResultOf_shapes(t *testing.T) {
	one := []tftypes.Value{tf(types.StringValue("a"))}
	if got := dumpTerraform(fw(resultOf(one))); got != `"a"` {
		t.Errorf("one: %s", got)
	}
	two := []tftypes.Value{tf(types.StringValue("a")), tf(types.BoolValue(true))}
	if got := dumpTerraform(fw(resultOf(two))); got != `tuple["a", true]` {
		t.Errorf("two: %s", got)
	}
	if got := dumpTerraform(fw(resultOf(nil))); got != `tuple[]` {
		t.Errorf("zero: %s", got)
	}
}

func TestContainsUnknown(t *testing.T) {
	m := value.NewMap(1)
	m.Set("a", []value.Value{"x", value.Unknown{}})
	known := value.NewMap(1)
	known.Set("a", []value.Value{"x", nil})
	if !containsUnknown(m) || containsUnknown(known) || !containsUnknown(value.UnknownStream) || containsUnknown("s") {
		t.Fatal("containsUnknown is wrong")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestToEngine_numberBeyondDoubleRangeIsAnError(t *testing.T) {
	huge, _, err := big.ParseFloat("1e1000", 10, 512, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	_, err = toEngine(tf(types.NumberValue(huge)))
	if err == nil || err.Error() != "a number is too large for a CEL double (beyond ±1.8e308)" {
		t.Fatalf("got %v, want the out-of-range error", err)
	}
}

func isUnknown(v value.Value) bool {
	_, ok := v.(value.Unknown)
	return ok
}
