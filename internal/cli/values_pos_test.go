package cli

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// The paths of $schema failures, as the engine writes them (reference §4
// $schema), read back as position keys.
func TestFailureKey_readsTheEnginesPaths(t *testing.T) {
	for line, want := range map[string]string{
		"replicaCount: expected integer, got string":     `."replicaCount"`,
		"image.list[0].x: expected integer, got string":  `."image"."list"[0]."x"`,
		`labels["app.kubernetes.io/name"][2]: too long`:  `."labels"."app.kubernetes.io/name"[2]`,
		"a.b-c: required variable is missing":            `."a"."b-c"`,
		"env[…]: expected string, got number":            `."env"`, // a key the schema does not name: its parent
		`a["x\"]: y"]: expected string, got number`:      `."a"."x\"]: y"`,
		"values.tolerations[10].key: expected string, x": `."values"."tolerations"[10]."key"`,
	} {
		got, ok := failureKey(line)
		if !ok || got != want {
			t.Errorf("failureKey(%q) = %q, %v; want %q", line, got, ok, want)
		}
	}
	for _, line := range []string{": x", "a.b", "a[x]: y", `a["x: y`, "a b: c"} {
		if got, ok := failureKey(line); ok {
			t.Errorf("failureKey(%q) = %q, want no path", line, got)
		}
	}
}

// Where each value of a values file is: a scalar or flow value at the
// value, a block mapping or sequence at its key, list items at the item,
// a value under an alias at the alias.
func TestPositions_indexEveryValueOfAValuesFile(t *testing.T) {
	text := `image:
  tag: "1.2"
ports: [80, 443]
items:
  - name: a
    size: 1
res: &r {cpu: 1}
copy: *r
`
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	got := positions("v.yaml", &doc, "")
	want := map[string]string{
		`."image"`:           "v.yaml:1:1",
		`."image"."tag"`:     "v.yaml:2:8",
		`."ports"`:           "v.yaml:3:8",
		`."ports"[0]`:        "v.yaml:3:9",
		`."ports"[1]`:        "v.yaml:3:13",
		`."items"`:           "v.yaml:4:1",
		`."items"[0]`:        "v.yaml:5:5",
		`."items"[0]."name"`: "v.yaml:5:11",
		`."items"[0]."size"`: "v.yaml:6:11",
		`."res"`:             "v.yaml:7:6",
		`."res"."cpu"`:       "v.yaml:7:15",
		`."copy"`:            "v.yaml:8:7",
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if got[k].String() != want[k] {
			t.Errorf("%s at %s, want %q", k, got[k], want[k])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d positions, want %d", len(got), len(want))
	}
	named := positions("v.yaml", &doc, "values")
	if p := named[`."values"."image"."tag"`]; p.String() != "v.yaml:2:8" {
		t.Errorf("under -f values=v.yaml, values.image.tag at %s", p)
	}
}

// The last layer that sets a value gives its position; a --set that sets
// it or a parent of it has none; a value no layer names is placed at its
// nearest parent that one does.
func TestAtValues_pointsAtTheLayerThatGaveTheValue(t *testing.T) {
	at := func(f string, l int) engine.Pos { return engine.Pos{File: f, Line: l, Column: 1} }
	in := &inputs{layers: []layer{
		{pos: map[string]engine.Pos{`."a"`: at("one.yaml", 1), `."a"."b"`: at("one.yaml", 2), `."a"."c"`: at("one.yaml", 3)}},
		{set: `."a"."c"`},
		{pos: map[string]engine.Pos{`."a"`: at("two.yaml", 1), `."x"`: at("two.yaml", 2)}},
		{set: `."x"`},
	}}
	msg := "the variables do not match the schema:\n    a.b: expected string, got number\n    a.c: expected string, got number\n    a.d[0]: expected string, got number\n    x.y: expected string, got number\n    z: required variable is missing"
	schemaErr := &engine.Error{Pos: engine.Pos{File: "t.yaml", Line: 1, Column: 3}, Path: "$schema", Msg: msg, Offset: -1}
	err := in.atValues(schemaErr)
	want := "one.yaml:2:1: a.b: expected string, got number\n" +
		"two.yaml:1:1: a.d[0]: expected string, got number\n" +
		"t.yaml:1:3: $schema: " + msg
	if err.Error() != want {
		t.Errorf("got:\n%s\nwant:\n%s", err, want)
	}
	var first *engine.Error
	if !errors.As(err, &first) || first.Pos.File != "one.yaml" {
		t.Errorf("errors.As finds %v, want the values file's error first", first)
	}
	if !errors.Is(err, schemaErr) {
		t.Errorf("the engine's error is not in the chain")
	}
	one := &engine.Error{Msg: "the variables do not match the schema: a.b: expected string, got number", Offset: -1}
	if got := in.atValues(one).Error(); !strings.HasPrefix(got, "one.yaml:2:1: a.b: expected string, got number\n") {
		t.Errorf("one failure: %s", got)
	}
	other := &engine.Error{Msg: "something else", Offset: -1}
	if got := in.atValues(other); got != other {
		t.Errorf("another error became %v", got)
	}
}

// check reports the same values file lines as render, as problems of
// their own.
func TestValuesProblems_areTheValuesLinesOfASchemaFailure(t *testing.T) {
	in := &inputs{layers: []layer{{pos: map[string]engine.Pos{`."n"`: {File: "v.yaml", Line: 2, Column: 4}}}}}
	ps := in.valuesProblems(&engine.Error{Msg: "the variables do not match the schema: n: expected integer, got string", Offset: -1})
	if len(ps) != 1 || ps[0].Warning || ps[0].Err.Error() != "v.yaml:2:4: n: expected integer, got string" {
		t.Errorf("got %v", ps)
	}
	if ps := in.valuesProblems(&engine.Error{Msg: "another problem", Offset: -1}); ps != nil {
		t.Errorf("another error gave %v", ps)
	}
}
