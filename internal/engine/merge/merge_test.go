package merge

import (
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/emit"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// parse reads a YAML text as a value (yamlnode keeps mapping order).
func parse(t testing.TB, text string) value.Value {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(text), &n); err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	v, err := yamlnode.Plain(&n)
	if err != nil {
		t.Fatalf("%q: %s", text, err.Msg)
	}
	return v
}

// show writes v as flow-free YAML on one line, keys in their order.
func show(t testing.TB, v value.Value) string {
	t.Helper()
	b, err := emit.AppendJSON(nil, v, false)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The rule of reference §9, case by case, with the key order it gives.
func TestPatch_mergeRule(t *testing.T) {
	cases := []struct{ name, base, over, want string }{
		{"maps merge deeply, later wins", "{a: 1, b: {c: 2, d: 3}}", "{b: {d: 4, e: 5}}", `{"a":1,"b":{"c":2,"d":4,"e":5}}`},
		{"null deletes a key", "{a: 1, b: 2}", "{a: null}", `{"b":2}`},
		{"null deletes a nested key", "{a: {b: 1, c: 2}}", "{a: {b: null}}", `{"a":{"c":2}}`},
		{"null for an absent key does nothing", "{a: 1}", "{z: null}", `{"a":1}`},
		{"sequences replace", "{xs: [1, 2, 3]}", "{xs: [4]}", `{"xs":[4]}`},
		{"scalar over map replaces", "{a: {b: 1}}", "{a: 5}", `{"a":5}`},
		{"map over scalar merges onto {} and drops its nulls", "{a: 5}", "{a: {b: 1, c: null}}", `{"a":{"b":1}}`},
		{"an added map drops its nulls", "{}", "{n: {x: null, y: {z: null, w: 1}}}", `{"n":{"y":{"w":1}}}`},
		{"base keys keep their places, added keys follow in over's order", "{z: 1, a: 2, m: 3}", "{q: 9, a: 8, b: 7}", `{"z":1,"a":8,"m":3,"q":9,"b":7}`},
		{"a null over replaces the base with null", "{a: 1}", "null", `null`},
		{"a scalar over replaces a map", "{a: 1}", "text", `"text"`},
		{"a map over a scalar base", "7", "{a: 1, b: null}", `{"a":1}`},
		{"a map over null", "null", "{a: {b: null}}", `{"a":{}}`},
		{"an empty list replaces", "{xs: [1]}", "{xs: []}", `{"xs":[]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := show(t, Patch(parse(t, c.base), parse(t, c.over))); got != c.want {
				t.Errorf("Patch(%s, %s) = %s, want %s", c.base, c.over, got, c.want)
			}
		})
	}
}

// A key whose winning value is not known yet is unknown; a mapping merged
// onto an unknown gives an unknown, since its keys cannot be known.
func TestPatch_unknownValues(t *testing.T) {
	base := value.NewMap(2)
	base.Set("image", value.Unknown{})
	base.Set("tag", "1.0")
	over := parse(t, "{tag: '2.0'}")
	got, _ := Patch(base, over).(*value.Map)
	if v, _ := got.Get("image"); v != (value.Unknown{}) {
		t.Errorf("image = %v, want unknown", v)
	}
	if v, _ := got.Get("tag"); v != "2.0" {
		t.Errorf("tag = %v, want 2.0", v)
	}
	if v := Patch(value.Unknown{}, over); v != (value.Unknown{}) {
		t.Errorf("a mapping onto an unknown gives %v, want unknown", v)
	}
	if v := Patch(base, value.Unknown{}); v != (value.Unknown{}) {
		t.Errorf("an unknown over gives %v, want unknown", v)
	}
}

// The result shares no mapping or sequence with its inputs.
func TestPatch_resultSharesNothingWithTheInputs(t *testing.T) {
	base := parse(t, "{a: {b: [1, 2]}, c: [{d: 1}]}")
	over := parse(t, "{e: {f: [3]}, c: [{g: 2}]}")
	got := Patch(base, over)
	want := show(t, got)
	mutate(base)
	mutate(over)
	if after := show(t, got); after != want {
		t.Errorf("changing the inputs changed the result:\n%s\n%s", want, after)
	}
}

// mutate changes every mapping and sequence in v in place.
func mutate(v value.Value) {
	switch x := v.(type) {
	case *value.Map:
		for i := 0; i < x.Len(); i++ {
			k, e := x.At(i)
			mutate(e)
			if _, isMap := e.(*value.Map); !isMap {
				if _, isList := e.([]value.Value); !isList {
					x.Set(k, "changed")
				}
			}
		}
		x.Set("added-by-mutate", true)
	case []value.Value:
		for i := range x {
			mutate(x[i])
			if _, isMap := x[i].(*value.Map); !isMap {
				x[i] = "changed"
			}
		}
	}
}

// dropNulls is over without its null map values, which is what merging
// over onto an empty mapping gives.
func dropNulls(v value.Value) value.Value {
	m, ok := v.(*value.Map)
	if !ok {
		return v
	}
	out := value.NewMap(m.Len())
	for i := 0; i < m.Len(); i++ {
		k, e := m.At(i)
		if e != nil {
			out.Set(k, dropNulls(e))
		}
	}
	return out
}

// hasNullInMaps reports a null value of a mapping anywhere in v.
func hasNullInMaps(v value.Value) bool {
	switch x := v.(type) {
	case *value.Map:
		for i := 0; i < x.Len(); i++ {
			if _, e := x.At(i); e == nil || hasNullInMaps(e) {
				return true
			}
		}
	case []value.Value:
		for _, e := range x {
			if hasNullInMaps(e) {
				return true
			}
		}
	}
	return false
}

// FuzzPatch checks the properties of the rule on any two YAML values:
// merging onto {} gives over without its nulls, merging a null-free value
// with itself changes nothing, and the result shares no state with the
// inputs.
func FuzzPatch(f *testing.F) {
	for _, s := range [][2]string{
		{"{a: 1, b: {c: 2}}", "{b: {c: null, d: [1, {e: null}]}}"},
		{"[1, 2]", "{a: {b: {c: null}}}"},
		{"{a: {b: 1}}", "{a: 5}"},
		{"5", "{a: 1}"},
		{"{z: 1, a: {y: 2, b: 3}}", "{a: {b: null, x: 4}, q: 5}"},
		{"null", "null"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, baseText, overText string) {
		base, ok1 := fuzzValue(baseText)
		over, ok2 := fuzzValue(overText)
		if !ok1 || !ok2 {
			t.Skip()
		}
		if _, isMap := over.(*value.Map); isMap {
			if got, want := show(t, Patch(value.NewMap(0), over)), show(t, dropNulls(over)); got != want {
				t.Fatalf("Patch({}, over) = %s, want over without nulls %s", got, want)
			}
		}
		if !hasNullInMaps(base) {
			if got, want := show(t, Patch(base, base)), show(t, base); got != want {
				t.Fatalf("Patch(v, v) = %s, want v = %s", got, want)
			}
		}
		got := Patch(base, over)
		want := show(t, got)
		mutate(base)
		mutate(over)
		if after := show(t, got); after != want {
			t.Fatalf("changing the inputs changed the result:\n%s\n%s", want, after)
		}
	})
}

// fuzzValue parses text as one YAML document of plain data, or reports
// that it is not one.
func fuzzValue(text string) (value.Value, bool) {
	if len(text) > 4096 || strings.Contains(text, "*") || strings.Contains(text, "<<") {
		return nil, false // aliases and merge keys: valid, but beside the point
	}
	var n yaml.Node
	if yaml.Unmarshal([]byte(text), &n) != nil {
		return nil, false
	}
	v, err := yamlnode.Plain(&n)
	if err != nil {
		return nil, false
	}
	if _, err := emit.AppendJSON(nil, v, false); err != nil {
		return nil, false // NaN and infinities
	}
	return v, true
}
