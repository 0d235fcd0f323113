package provider

import (
	"bytes"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// codecAgrees checks the direct codec against the tftypes path, its
// oracle, on one value: decoding the value's protocol bytes gives what
// toEngine gives (or fails where it fails), and encoding that engine value
// gives the bytes NewDynamicValue gives for fromEngine's value.
func codecAgrees(t *testing.T, tv tftypes.Value) {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(tftypes.DynamicPseudoType, tv)
	if err != nil {
		t.Fatalf("NewDynamicValue: %v", err)
	}
	back, err := dv.Unmarshal(tftypes.DynamicPseudoType)
	if err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	want, wantErr := toEngine(back)
	got, _, gotErr := decodeDynamic(dv.MsgPack)
	if (wantErr != nil) != (gotErr != nil) {
		t.Fatalf("decode of %s: tftypes error %v, direct error %v", tv, wantErr, gotErr)
	}
	if wantErr != nil {
		return
	}
	if a, b := engineText(got), engineText(want); a != b {
		t.Fatalf("decode of %s:\n direct %s\ntftypes %s", tv, a, b)
	}
	ref, err := fromEngine(want)
	if err != nil {
		t.Fatalf("fromEngine: %v", err)
	}
	refDV, err := tfprotov6.NewDynamicValue(tftypes.DynamicPseudoType, ref)
	if err != nil {
		t.Fatalf("NewDynamicValue of fromEngine's value: %v", err)
	}
	enc, err := encodeDynamic(want)
	if err != nil {
		t.Fatalf("encodeDynamic: %v", err)
	}
	if !bytes.Equal(enc, refDV.MsgPack) {
		t.Fatalf("encode of %s:\n direct %x\ntftypes %x", engineText(want), enc, refDV.MsgPack)
	}
}

func num(s string) tftypes.Value {
	f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	if err != nil {
		panic(err)
	}
	return tftypes.NewValue(tftypes.Number, f)
}

// Every kind of value the protocol carries, decoded and encoded as the
// tftypes path does.
func TestCodec_agreesWithTheTftypesPath(t *testing.T) {
	obj := func(attrs map[string]tftypes.Value) tftypes.Value {
		typs := map[string]tftypes.Type{}
		for k, v := range attrs {
			typs[k] = v.Type()
		}
		return tftypes.NewValue(tftypes.Object{AttributeTypes: typs}, attrs)
	}
	dynAttr := tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"d": tftypes.DynamicPseudoType}},
		map[string]tftypes.Value{"d": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str("in a dynamic attribute")})})
	cases := map[string]tftypes.Value{
		"string":               str("text <&> \u2028"),
		"empty string":         str(""),
		"bool":                 tftypes.NewValue(tftypes.Bool, true),
		"small int":            num("7"),
		"negative int":         num("-300000"),
		"2^53+1":               num("9007199254740993"),
		"max int64":            num("9223372036854775807"),
		"min int64":            num("-9223372036854775808"),
		"2^63, beyond int64":   num("9223372036854775808"),
		"2^64+1":               num("18446744073709551617"),
		"fraction":             num("0.1"),
		"exact fraction":       num("2.5"),
		"huge":                 num("1e300"),
		"beyond float64":       num("1e400"),
		"null string":          tftypes.NewValue(tftypes.String, nil),
		"unknown number":       tftypes.NewValue(tftypes.Number, tftypes.UnknownValue),
		"dynamic null":         tftypes.NewValue(tftypes.DynamicPseudoType, nil),
		"dynamic unknown":      tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue),
		"empty object":         obj(map[string]tftypes.Value{}),
		"empty tuple":          tftypes.NewValue(tftypes.Tuple{ElementTypes: []tftypes.Type{}}, []tftypes.Value{}),
		"empty list":           tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{}),
		"empty map":            tftypes.NewValue(tftypes.Map{ElementType: tftypes.Number}, map[string]tftypes.Value{}),
		"map":                  tftypes.NewValue(tftypes.Map{ElementType: tftypes.Number}, map[string]tftypes.Value{"b": num("1"), "a": num("2.5")}),
		"set":                  tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{str("x"), str("y")}),
		"list with an unknown": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str("x"), tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}),
		"object in a dynamic":  dynAttr,
		"attribute names":      obj(map[string]tftypes.Value{"a<b": str("1"), "z": str("2"), "ä": str("3"), "\"q\"": str("4"), "": str("5")}),
		"unknown object":       tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.String}}, tftypes.UnknownValue),
		"unknown list":         tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, tftypes.UnknownValue),
		"unknown set":          tftypes.NewValue(tftypes.Set{ElementType: tftypes.Number}, tftypes.UnknownValue),
		"unknown tuple":        tftypes.NewValue(tftypes.Tuple{ElementTypes: []tftypes.Type{tftypes.String, tftypes.Bool}}, tftypes.UnknownValue),
		"unknown nested types": tftypes.NewValue(tftypes.Map{ElementType: tftypes.Object{AttributeTypes: map[string]tftypes.Type{
			"args": tftypes.List{ElementType: tftypes.String}, "a<b": tftypes.DynamicPseudoType,
		}}}, tftypes.UnknownValue),
		"unknown list in an object": obj(map[string]tftypes.Value{"args": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, tftypes.UnknownValue)}),
		"null list in an object":    obj(map[string]tftypes.Value{"l": tftypes.NewValue(tftypes.List{ElementType: tftypes.Bool}, nil)}),
		"nested unknown": obj(map[string]tftypes.Value{"svc": obj(map[string]tftypes.Value{
			"image": tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "port": num("80"),
		})}),
		"the bench context": benchContext(),
	}
	for name, tv := range cases {
		t.Run(name, func(t *testing.T) { codecAgrees(t, tv) })
	}
}

// A string argument decodes as the string, null or unknown it is.
func TestCodec_decodesStringArguments(t *testing.T) {
	for _, c := range []struct {
		v             tftypes.Value
		s             string
		null, unknown bool
	}{
		{str("app.yaml"), "app.yaml", false, false},
		{tftypes.NewValue(tftypes.String, nil), "", true, false},
		{tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "", false, true},
	} {
		dv, err := tfprotov6.NewDynamicValue(tftypes.String, c.v)
		if err != nil {
			t.Fatal(err)
		}
		s, null, unknown, err := decodeString(dv.MsgPack)
		if err != nil || s != c.s || null != c.null || unknown != c.unknown {
			t.Errorf("%s: got %q null=%v unknown=%v err=%v", c.v, s, null, unknown, err)
		}
	}
}

// Broken input is an error, never a panic.
func TestCodec_refusesBrokenInput(t *testing.T) {
	for _, b := range [][]byte{
		{}, {0x92}, {0x92, 0xc4, 0x01, '['}, {0x92, 0xc4, 0x08, '"', 's', 't', 'r', 'i', 'n', 'g', '"'},
		{0x93, 0xc4, 0x01, '"'}, {0x92, 0xc4, 0x0a, '[', '"', 'l', 'i', 's', 't', '"', ',', '"', 'x'},
	} {
		if _, _, err := decodeDynamic(b); err == nil {
			t.Errorf("%x: decoded without an error", b)
		}
	}
	if _, err := parseTypeJSON([]byte(strings.Repeat(`["list",`, 600) + `"string"` + strings.Repeat("]", 600))); err == nil {
		t.Error("a type nested 600 deep parsed")
	}
}

// FuzzCodec holds the direct codec to the tftypes path on generated values
// of every kind.
func FuzzCodec(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 1, 0, 0, 0, 0, 0, 32, 0})
	f.Add([]byte{6, 3, 3, 'a', 'b', 'c', 0, 1, 'x', 3, 9})
	f.Add([]byte{8, 3, 5, 1, 5, 0, 2, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{11, 2, 1, 'k', 7, 1, 'j', 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		v := tf((&fuzzValue{b: data}).value(0))
		if !validUTF8(v) {
			t.Skip() // the protocol's type JSON cannot carry such a name
		}
		codecAgrees(t, v)
	})
}

// The encoder writes every integer in the fewest bytes, as tftypes does,
// across each width's bounds, and whole doubles as integers unless beyond
// int64 (decimal text) or NaN; the same for a key order and unicode names.
func TestCodec_encodesNumbersAtEveryWidthAsTftypes(t *testing.T) {
	var vals []value.Value
	for _, n := range []int64{0, 1, 31, 32, 127, 128, 255, 256, 65535, 65536, math.MaxUint32, math.MaxUint32 + 1, math.MaxInt64,
		-1, -31, -32, -33, -128, -129, -32768, -32769, math.MinInt32, math.MinInt32 - 1, math.MinInt64} {
		vals = append(vals, n)
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 0.5, -0.5, 1e300, -1e300, 3, -3, 255, -129, 1 << 53, math.Ldexp(1, 63),
		-math.Ldexp(1, 63), math.MaxFloat64, math.SmallestNonzeroFloat64, 1.0000000000000002} {
		vals = append(vals, f)
	}
	m := value.NewMap(3)
	m.Set("z", int64(1))
	m.Set("<a>", "x")
	m.Set("é", []value.Value{int64(-40000), 2.5, true, nil, strings.Repeat("s", 40000)})
	vals = append(vals, m)
	for _, v := range vals {
		ref, err := fromEngine(v)
		if err != nil {
			t.Fatalf("fromEngine(%v): %v", v, err)
		}
		want, err := tfprotov6.NewDynamicValue(tftypes.DynamicPseudoType, ref)
		if err != nil {
			t.Fatalf("NewDynamicValue(%v): %v", v, err)
		}
		got, err := encodeDynamic(v)
		if err != nil {
			t.Fatalf("encodeDynamic(%v): %v", v, err)
		}
		if !bytes.Equal(got, want.MsgPack) {
			t.Errorf("encode of %v (%T):\n direct %x\ntftypes %x", v, v, got, want.MsgPack)
		}
	}
}

// A map whose keys come out of order (Terraform writes them in order;
// msgpack does not require it) decodes as tftypes decodes it: in order.
func TestCodec_decodesKeysOutOfOrderAsTftypes(t *testing.T) {
	typ := []byte(`["object",{"a":"string","b":"string","c":["object",{"x":"number","y":"number"}]}]`)
	val := appendMapLen(nil, 3)
	val = appendStringOf(val, "c")
	val = appendMapLen(val, 2)
	val = appendStringOf(val, "y")
	val = appendInt(val, 2)
	val = appendStringOf(val, "x")
	val = appendInt(val, 1)
	val = appendStringOf(val, "b")
	val = appendStringOf(val, "B")
	val = appendStringOf(val, "a")
	val = appendStringOf(val, "A")
	in := appendDynamic(nil, typ, val)
	back, err := (&tfprotov6.DynamicValue{MsgPack: in}).Unmarshal(tftypes.DynamicPseudoType)
	if err != nil {
		t.Fatalf("tftypes: %v", err)
	}
	want, err := toEngine(back)
	if err != nil {
		t.Fatalf("toEngine: %v", err)
	}
	got, _, err := decodeDynamic(in)
	if err != nil {
		t.Fatalf("decodeDynamic: %v", err)
	}
	if a, b := engineText(got), engineText(want); a != b {
		t.Fatalf("direct %s\ntftypes %s", a, b)
	}
	if a := engineText(got); a != `{"a":string(A),"b":string(B),"c":{"x":int64(1),"y":int64(2),},}` {
		t.Fatalf("decoded %s", a)
	}
}
