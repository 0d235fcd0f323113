package celenv

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv/celval"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

func TestConv_toCELScalars(t *testing.T) {
	cases := []struct {
		in   value.Value
		want ref.Val
	}{
		{nil, types.NullValue},
		{true, types.True},
		{false, types.False},
		{int64(42), types.Int(42)},
		{int64(math.MaxInt64), types.Int(math.MaxInt64)},
		{int64(math.MinInt64), types.Int(math.MinInt64)},
		{2.5, types.Double(2.5)},
		{2.0, types.Double(2)},
		{"s", types.String("s")},
	}
	for _, tc := range cases {
		got := ToCEL(tc.in)
		if got != tc.want {
			t.Errorf("toCEL(%#v) = %#v (%T), want %#v (%T)", tc.in, got, got, tc.want, tc.want)
		}
	}
	if _, ok := ToCEL(value.Unknown{}).(*types.Unknown); !ok {
		t.Errorf("toCEL(value.Unknown{}) = %T, want *types.Unknown", ToCEL(value.Unknown{}))
	}
	if !types.IsError(ToCEL(struct{}{})) {
		t.Error("toCEL of a foreign Go value must be an error value")
	}
}

// Maps and lists are wrapped, not copied, and behave as CEL maps and
// lists in every operation.
func TestConv_toCELCollectionsBehaveAsCELValues(t *testing.T) {
	vars := map[string]value.Value{
		"m":    celTestMap("b", int64(1), "a", []value.Value{"x", 2.5}, "n", nil),
		"xs":   []value.Value{int64(1), int64(2), int64(3)},
		"max":  int64(math.MaxInt64),
		"min":  int64(math.MinInt64),
		"e":    value.NewMap(0),
		"nilm": (*value.Map)(nil),
	}
	runCELCases(t, vars, []celCase{
		{`m.b + m['b']`, `2`},
		{`m.a[1]`, `2.5`},
		{`m.n == null`, `true`},
		{`'a' in m && !('z' in m) && has(m.b) && !has(m.z)`, `true`},
		{`size(m) + m.size() + size(e) + size(nilm)`, `6`},
		{`m.map(k, k)`, `["b", "a", "n"]`}, // the map's own order
		{`m.filter(k, k != 'n')`, `["b", "a"]`},
		{`m.transformMap(k, v, k)`, `{"a": "a", "b": "b", "n": "n"}`},
		{`m == {'b': 1, 'a': ['x', 2.5], 'n': null} && m != {'b': 1}`, `true`},
		{`{'b': 1, 'a': ['x', 2.5], 'n': null} == m`, `true`},
		{`m.z`, `error: no such key 'z'; test for it with has(m.z), or give a default with m.?z.orValue(…)`},
		{`m[1]`, `error: no such key`},
		{`xs[0] + xs[2]`, `4`},
		{`xs[3]`, `error: index out of range`},
		{`xs['a']`, `error: unsupported index type 'string' in list`},
		{`2 in xs && !(4 in xs)`, `true`},
		{`xs + [4]`, `[1, 2, 3, 4]`},
		{`[0] + xs`, `[0, 1, 2, 3]`},
		{`xs + xs`, `[1, 2, 3, 1, 2, 3]`},
		{`xs == [1, 2, 3] && [1, 2, 3] == xs && xs != [1]`, `true`},
		{`xs.map(x, x * 2)`, `[2, 4, 6]`},
		{`xs.transformList(i, v, i)`, `[0, 1, 2]`},
		{`xs.sort().reverse()`, `[3, 2, 1]`},
		{`xs.sum() + xs.max()`, `9`},
		{`sets.contains(xs, [3])`, `true`},
		{`xs.join()`, `error: no matching overload for list.join()`},
		{`type(m) == map && type(xs) == list`, `true`},
		{`dyn(m).b`, `1`},
		// int64 extremes stay exact through CEL.
		{`max`, `9223372036854775807`},
		{`min`, `-9223372036854775808`},
		{`max - 1`, `9223372036854775806`},
		{`min + 1`, `-9223372036854775807`},
		{`max + 1`, `error: integer overflow`},
		{`string(max)`, `"9223372036854775807"`},
	})
}

func TestConv_fromCEL(t *testing.T) {
	vars := map[string]value.Value{"m": celTestMap("z", int64(1), "a", int64(2))}
	runCELCases(t, vars, []celCase{
		{`'s'`, `"s"`},
		{`9223372036854775807`, `9223372036854775807`},
		{`-9223372036854775808`, `-9223372036854775808`},
		{`1u`, `1`},
		{`9223372036854775807u`, `9223372036854775807`},
		{`18446744073709551615u`, `1.8446744073709552e+19`},
		{`2.0`, `2.0`},
		{`true`, `true`},
		{`null`, `null`},
		{`b'hello'`, `"aGVsbG8="`},
		{`timestamp('2023-01-02T03:04:05Z')`, `"2023-01-02T03:04:05Z"`},
		{`timestamp('2023-01-02T03:04:05.5+02:00')`, `"2023-01-02T03:04:05.5+02:00"`},
		{`duration('1h')`, `"3600s"`},
		{`duration('1.5s')`, `"1.5s"`},
		{`quantity('500Mi')`, `"500Mi"`},
		{`url('https://example.com/x')`, `"https://example.com/x"`},
		{`ip('10.0.0.1')`, `"10.0.0.1"`},
		{`cidr('10.0.0.0/24')`, `"10.0.0.0/24"`},
		{`semver('2.1.0')`, `"2.1.0"`},
		{`format.dns1123Label()`, `"DNS1123Label"`},
		{`type(1)`, `"int"`},
		{`optional.of(1)`, `1`},
		{`optional.none()`, `nothing`},
		{`[1, optional.none(), 2]`, `[1, 2]`},
		{`{'a': optional.none(), 'b': optional.of(1)}`, `{"b": 1}`},
		// Maps built by CEL have sorted string keys.
		{`{'b': 1, 'a': {'d': 1, 'c': 2}}`, `{"a": {"c": 2, "d": 1}, "b": 1}`},
		{`{2: 'x', 10: 'y', true: 'z', 3u: 'w'}`, `{"10": "y", "2": "x", "3": "w", "true": "z"}`},
		{`{1: 'a', '1': 'b'}`, `error: two keys of a map become the same string`},
		{`{1.5: 'a'}`, `error: a map key of type double cannot be written out`},
		{`{'b': 1, 'a': 2}.transformMap(k, v, v)`, `{"a": 2, "b": 1}`},
		// A wrapped map comes back as it was.
		{`m`, `{"z": 1, "a": 2}`},
		{`[m]`, `[{"z": 1, "a": 2}]`},
		{`[[1], ['a', null]]`, `[[1], ["a", null]]`},
	})
	// A wrapped value is the very same engine value.
	m := celTestMap("k", "v")
	xs := []value.Value{int64(1)}
	if got, _, _ := FromCEL(ToCEL(m)); got != value.Value(m) {
		t.Error("a wrapped map was copied")
	}
	if got, _, _ := FromCEL(ToCEL(xs)); !reflect.DeepEqual(got, value.Value(xs)) || &got.([]value.Value)[0] != &xs[0] {
		t.Error("a wrapped list was copied")
	}
	// Errors become Go errors without the value.
	_, _, err := FromCEL(types.NewErr("no such key: hunter2"))
	if err == nil || err.Error() != "no such key" {
		t.Errorf("fromCEL(error) = %v", err)
	}
	// Round trips of every kind.
	for _, v := range []value.Value{nil, true, int64(math.MaxInt64), int64(math.MinInt64), 0.5, "x", []value.Value{int64(1), "a"}, celTestMap("a", int64(1))} {
		got, present, err := FromCEL(ToCEL(v))
		if err != nil || !present || !reflect.DeepEqual(got, v) {
			t.Errorf("round trip of %#v gave %#v, %v, %v", v, got, present, err)
		}
	}
}

// Lists that share structure expand exponentially; conversion stops.
func TestConv_fromCELStopsOnHugeValues(t *testing.T) {
	v, xerr := celRun(celTestCache, `cel.bind(a, [1, 1, 1, 1, 1, 1, 1, 1], cel.bind(b, [a, a, a, a, a, a, a, a], cel.bind(c, [b, b, b, b, b, b, b, b], cel.bind(d, [c, c, c, c, c, c, c, c], cel.bind(e, [d, d, d, d, d, d, d, d], cel.bind(f, [e, e, e, e, e, e, e, e], [f, f, f, f, f, f, f, f]))))))`, nil)
	if xerr != nil {
		t.Fatal(xerr.Msg)
	}
	if _, _, err := FromCEL(v); !errors.Is(err, celval.ErrTooLarge) {
		t.Errorf("fromCEL = %v, want celval.ErrTooLarge", err)
	}
	if _, err := Stringify(v); !errors.Is(err, celval.ErrTooLarge) {
		t.Errorf("stringify = %v, want celval.ErrTooLarge", err)
	}
	if got := celResult(celTestCache, `cel.bind(a, lists.range(1000).map(i, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'), cel.bind(b, [a, a, a, a, a, a, a, a, a, a], cel.bind(c, [b, b, b, b, b, b, b, b, b, b], json.encode([c, c, c, c, c, c, c, c, c, c]))))`, nil); got != "error: json.encode: the text would be larger than 64 MiB" {
		t.Errorf("json.encode of a huge shared value: %s", got)
	}
}

func TestConv_stringify(t *testing.T) {
	cases := []struct {
		expr, want string
	}{
		{`'text'`, `text`},
		{`42`, `42`},
		{`-9223372036854775808`, `-9223372036854775808`},
		{`18446744073709551615u`, `18446744073709551615`},
		{`1.5`, `1.5`},
		{`3.0`, `3`},
		{`1000000.0`, `1e+06`}, // CEL's string() form
		{`1e21`, `1e+21`},
		{`true`, `true`},
		{`false`, `false`},
		{`null`, `null`},
		{`[1, 'a', 2.0, 2.5, null, true]`, `[1,"a",2,2.5,null,true]`},
		{`{'b': [true], 'a': 1}`, `{"a":1,"b":[true]}`},
		{`['<&>', 'é', "\n"]`, `["<&>","é","\n"]`},
		{`timestamp('2023-01-02T03:04:05Z')`, `2023-01-02T03:04:05Z`},
		{`duration('90s')`, `90s`},
		{`b'hi'`, `aGk=`},
		{`quantity('1Gi')`, `1Gi`},
		{`optional.of('x')`, `x`},
		{`optional.none()`, ``},
		{`type('a')`, `string`},
	}
	vars := map[string]value.Value{"m": celTestMap("z", int64(1), "a", []value.Value{2.0})}
	for _, tc := range cases {
		v, xerr := celRun(celTestCache, tc.expr, vars)
		if xerr != nil {
			t.Errorf("%s: %s", tc.expr, xerr.Msg)
			continue
		}
		got, err := Stringify(v)
		if err != nil || got != tc.want {
			t.Errorf("stringify(%s) = %q, %v; want %q", tc.expr, got, err, tc.want)
		}
	}
	// A wrapped template map is written with sorted keys too.
	if got, err := Stringify(ToCEL(vars["m"])); err != nil || got != `{"a":[2],"z":1}` {
		t.Errorf("stringify(m) = %q, %v", got, err)
	}
	for _, v := range []ref.Val{celval.UnknownOf(value.TypeDynamic), ToCEL([]value.Value{value.Unknown{}})} {
		if _, err := Stringify(v); !errors.Is(err, celval.ErrValueUnknown) {
			t.Errorf("stringify(%v) = %v, want celval.ErrValueUnknown", v, err)
		}
	}
	if _, err := Stringify(ToCEL([]value.Value{math.NaN()})); err == nil {
		t.Error("stringify of a list holding NaN must fail")
	}
}

func TestConv_convertToNative(t *testing.T) {
	m := ToCEL(celTestMap("a", []value.Value{int64(1), "x"}))
	got, err := m.ConvertToNative(reflect.TypeOf(map[string]any{}))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": []any{int64(1), "x"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ConvertToNative = %#v, want %#v", got, want)
	}
	l := ToCEL([]value.Value{"a", "b"})
	gotL, err := l.ConvertToNative(reflect.TypeOf([]string{}))
	if err != nil || !reflect.DeepEqual(gotL, []string{"a", "b"}) {
		t.Errorf("ConvertToNative(list) = %#v, %v", gotL, err)
	}
	if m.ConvertToType(types.TypeType) != types.MapType || l.ConvertToType(types.TypeType) != types.ListType {
		t.Error("type() of wrapped values")
	}
}

// optional.ofNonZeroValue treats an empty map or list from the variables
// as empty, as it does one that CEL built (Helm's `with` written in CEL).
func TestCELConv_emptyVariablesAreZeroValues(t *testing.T) {
	vars := map[string]value.Value{"m": value.NewMap(0), "l": []value.Value{}, "full": []value.Value{int64(1)}}
	for expr, want := range map[string]string{
		`optional.ofNonZeroValue(m).hasValue()`:    "false",
		`optional.ofNonZeroValue(l).hasValue()`:    "false",
		`optional.ofNonZeroValue(full).hasValue()`: "true",
		`optional.ofNonZeroValue({}).hasValue()`:   "false",
	} {
		v, xerr := celRun(celTestCache, expr, vars)
		if xerr != nil {
			t.Fatalf("%s: %s", expr, xerr.Msg)
		}
		if got := fmt.Sprint(v.Value()); got != want {
			t.Errorf("%s = %s, want %s", expr, got, want)
		}
	}
}

// deepMerge keeps an unknown leaf unknown, gives an unknown for a map
// merged onto an unknown, and is priced by the size of what it copies.
func TestDeepMerge_unknownsAndCost(t *testing.T) {
	img := value.NewMap(2)
	img.Set("repo", "nginx")
	img.Set("tag", value.Unknown{})
	vars := map[string]value.Value{"img": img, "u": value.Unknown{}}
	if v, xerr := celRun(celTestCache, `deepMerge(img, {'repo': 'caddy'}).repo`, vars); xerr != nil || v.Value() != "caddy" {
		t.Errorf("known key of a partly unknown merge = %v, %v; want caddy", v, xerr)
	}
	if v, _ := celRun(celTestCache, `deepMerge(img, {'repo': 'caddy'}).tag`, vars); v == nil || !types.IsUnknown(v) {
		t.Errorf("unknown leaf = %v, want unknown", v)
	}
	if got := celResult(celTestCache, `deepMerge(u, {'a': 1})`, vars); got != "unknown" {
		t.Errorf("map onto unknown = %s, want unknown", got)
	}
	big := value.NewMap(300)
	for i := range 300 {
		big.Set(fmt.Sprint("k", i), []value.Value{int64(i)})
	}
	small := NewCache(200)
	vars["big"] = big
	if _, xerr := celRun(small, `size(big)`, vars); xerr != nil {
		t.Fatalf("reading the map is cheap: %s", xerr.Msg)
	}
	if _, xerr := celRun(small, `deepMerge(big, {})`, vars); xerr == nil || xerr.Limit != "MaxCostPerExpression" {
		t.Errorf("copying a map of 600 nodes under a 200 limit: %v, want the cost limit", xerr)
	}
}
