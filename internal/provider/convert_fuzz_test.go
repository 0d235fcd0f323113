package provider

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// fuzzValue builds a Terraform value from fuzz bytes: objects, maps, lists,
// tuples, sets, strings, numbers (whole, fractional and beyond int64),
// bools, nulls and unknowns of every type (dynamic, primitives,
// collections, objects, tuples), nested a few levels deep.
type fuzzValue struct {
	b []byte
}

func (f *fuzzValue) byte() byte {
	if len(f.b) == 0 {
		return 0
	}
	c := f.b[0]
	f.b = f.b[1:]
	return c
}

func (f *fuzzValue) str() string {
	n := int(f.byte() % 12)
	if n > len(f.b) {
		n = len(f.b)
	}
	s := string(f.b[:n])
	f.b = f.b[n:]
	return s
}

func (f *fuzzValue) value(depth int) attr.Value {
	kind := f.byte() % 12
	if depth > 4 && kind >= 6 {
		kind %= 6
	}
	switch kind {
	case 0:
		return types.StringValue(f.str())
	case 1:
		var buf [8]byte
		for i := range buf {
			buf[i] = f.byte()
		}
		return types.NumberValue(new(big.Float).SetInt64(int64(binary.LittleEndian.Uint64(buf[:]))))
	case 2:
		var buf [8]byte
		for i := range buf {
			buf[i] = f.byte()
		}
		x := math.Float64frombits(binary.LittleEndian.Uint64(buf[:]))
		if math.IsNaN(x) || math.IsInf(x, 0) {
			x = 0.5
		}
		return types.NumberValue(big.NewFloat(x))
	case 3:
		// Beyond int64: 2^64 + k.
		b := new(big.Float).SetPrec(128).SetInt(new(big.Int).Lsh(big.NewInt(1), 64))
		b.Add(b, big.NewFloat(float64(f.byte())))
		return types.NumberValue(b)
	case 4:
		return types.BoolValue(f.byte()%2 == 0)
	case 5:
		switch f.byte() % 6 {
		case 0:
			return types.DynamicNull()
		case 1:
			return types.DynamicUnknown()
		case 2:
			return types.StringUnknown()
		case 3:
			return types.ListUnknown(types.StringType)
		case 4:
			return types.MapUnknown(types.NumberType)
		}
		// An unknown of the type of some other value: an object, a tuple,
		// nested collections.
		typ := f.value(depth + 1).Type(context.Background())
		u, err := typ.ValueFromTerraform(context.Background(), tftypes.NewValue(typ.TerraformType(context.Background()), tftypes.UnknownValue))
		if err != nil {
			return types.DynamicUnknown()
		}
		return u
	case 6, 7:
		n := int(f.byte() % 4)
		typs := map[string]attr.Type{}
		vals := map[string]attr.Value{}
		for i := 0; i < n; i++ {
			k := f.str()
			v := f.value(depth + 1)
			typs[k], vals[k] = v.Type(context.Background()), v
		}
		o, _ := types.ObjectValue(typs, vals)
		return o
	case 8, 9:
		n := int(f.byte() % 4)
		typs := make([]attr.Type, n)
		vals := make([]attr.Value, n)
		for i := 0; i < n; i++ {
			vals[i] = f.value(depth + 1)
			typs[i] = vals[i].Type(context.Background())
		}
		t, _ := types.TupleValue(typs, vals)
		return t
	case 10:
		n := int(f.byte() % 4)
		vals := make([]attr.Value, n)
		for i := range vals {
			vals[i] = types.StringValue(f.str())
		}
		l, _ := types.ListValue(types.StringType, vals)
		return l
	default:
		n := int(f.byte() % 4)
		vals := map[string]attr.Value{}
		for i := 0; i < n; i++ {
			vals[f.str()] = types.NumberValue(big.NewFloat(float64(f.byte())))
		}
		m, _ := types.MapValue(types.NumberType, vals)
		return m
	}
}

// jsonValue builds a Terraform value from JSON, numbers exact: the shape
// of a `context` that Terraform sends. It reports false for anything that
// is not a single JSON value.
func jsonValue(data []byte) (attr.Value, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, false
	}
	var build func(any) attr.Value
	build = func(v any) attr.Value {
		switch v := v.(type) {
		case nil:
			return types.DynamicNull()
		case bool:
			return types.BoolValue(v)
		case string:
			return types.StringValue(v)
		case json.Number:
			f, _, err := big.ParseFloat(string(v), 10, 512, big.ToNearestEven)
			if err != nil || f.IsInf() {
				return types.StringValue(string(v))
			}
			return types.NumberValue(f)
		case []any:
			typs := make([]attr.Type, len(v))
			vals := make([]attr.Value, len(v))
			for i, e := range v {
				vals[i] = build(e)
				typs[i] = vals[i].Type(context.Background())
			}
			t, _ := types.TupleValue(typs, vals)
			return t
		case map[string]any:
			typs := map[string]attr.Type{}
			vals := map[string]attr.Value{}
			for k, e := range v {
				vals[k] = build(e)
				typs[k] = vals[k].Type(context.Background())
			}
			o, _ := types.ObjectValue(typs, vals)
			return o
		}
		return types.DynamicNull()
	}
	return build(v), true
}

// goldenVars returns the vars.json of every engine golden case, to seed
// the fuzzer with the contexts templates really get.
func goldenVars(tb testing.TB) [][]byte {
	files, _ := filepath.Glob("../engine/testdata/golden/*/*.txtar")
	var out [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for _, af := range txtar.Parse(data).Files {
			if af.Name == "vars.json" {
				out = append(out, af.Data)
			}
		}
	}
	return out
}

// engineText prints an engine value with its Go types, for comparison.
func engineText(v value.Value) string {
	var b strings.Builder
	var walk func(value.Value)
	walk = func(v value.Value) {
		switch v := v.(type) {
		case *value.Map:
			b.WriteString("{")
			for i := 0; i < v.Len(); i++ {
				k, e := v.At(i)
				fmt.Fprintf(&b, "%q:", k)
				walk(e)
				b.WriteString(",")
			}
			b.WriteString("}")
		case []value.Value:
			b.WriteString("[")
			for _, e := range v {
				walk(e)
				b.WriteString(",")
			}
			b.WriteString("]")
		default:
			fmt.Fprintf(&b, "%T(%v)", v, v)
		}
	}
	walk(v)
	return b.String()
}

// FuzzConvert checks that converting any Terraform value to the engine and
// back, and to the engine again, never panics and loses nothing: the two
// engine values are identical (but for an unknown collection or object,
// which is written out dynamic), integers stay int64 and exact. Inputs that
// are JSON (seeded from the golden corpus's vars.json files) are read as a
// context; other bytes drive a generator of every value kind.
func FuzzConvert(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 1, 0, 0, 0, 0, 0, 32, 0})              // a whole number just past 2^53
	f.Add([]byte{6, 3, 3, 'a', 'b', 'c', 0, 1, 'x', 3, 9}) // an object with a string and a big number
	f.Add([]byte{8, 3, 5, 1, 5, 0, 2, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{11, 2, 1, 'k', 7, 1, 'j', 9})
	for _, v := range goldenVars(f) {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tv, ok := jsonValue(data)
		if !ok {
			tv = (&fuzzValue{b: data}).value(0)
		}
		ev, err := toEngine(tf(tv))
		if err != nil {
			// The one refusal: a number beyond float64's range.
			if !strings.Contains(err.Error(), "too large for a CEL double") {
				t.Fatalf("toEngine: %v", err)
			}
			return
		}
		back, err := fromEngine(ev)
		if err != nil {
			t.Fatalf("fromEngine: %v", err)
		}
		ev2, err := toEngine(back)
		if err != nil {
			t.Fatalf("toEngine after the round trip: %v", err)
		}
		if a, b := engineText(written(ev)), engineText(ev2); a != b {
			t.Fatalf("round trip changed the value:\n%s\n%s", a, b)
		}
	})
}

// written is v as it comes back from Terraform: each unknown with the
// type it is written out with (value.Type.Written: a collection, object
// or tuple type comes back dynamic).
func written(v value.Value) value.Value {
	switch x := v.(type) {
	case value.Unknown:
		return value.UnknownOf(x.Type.Written())
	case *value.Map:
		out := value.NewMap(x.Len())
		for i := 0; i < x.Len(); i++ {
			k, e := x.At(i)
			out.Set(k, written(e))
		}
		return out
	case []value.Value:
		out := make([]value.Value, len(x))
		for i, e := range x {
			out[i] = written(e)
		}
		return out
	}
	return v
}
