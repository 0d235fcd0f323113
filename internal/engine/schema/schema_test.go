package schema

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"go.yaml.in/yaml/v3"
)

// parseNode parses src, the value of a $schema key, into its node.
func parseNode(t testing.TB, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("bad test YAML: %v", err)
	}
	return doc.Content[0]
}

func mustCompile(t testing.TB, src string) *Set {
	t.Helper()
	s, err := Compile(parseNode(t, src))
	if err != nil {
		t.Fatalf("Compile: %d:%d: %s", err.Node.Line, err.Node.Column, err.Msg)
	}
	return s
}

// compileErr returns the compile error as "LINE:COL: msg".
func compileErr(t testing.TB, src string) string {
	t.Helper()
	s, err := Compile(parseNode(t, src))
	if err == nil {
		t.Fatalf("Compile succeeded: %+v", s)
	}
	if err.Node == nil {
		return "?:?: " + err.Msg
	}
	return fmt.Sprintf("%d:%d: %s", err.Node.Line, err.Node.Column, err.Msg)
}

func lookupIn(vars map[string]value.Value) func(string) (value.Value, bool) {
	return func(name string) (value.Value, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

// mapOf builds an ordered map from key, value pairs.
func mapOf(kv ...any) *value.Map {
	m := value.NewMap(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

func expectFailures(t *testing.T, schema string, vars map[string]value.Value, want ...string) {
	t.Helper()
	s := mustCompile(t, schema)
	defs, got, _ := s.Check(lookupIn(vars))
	if len(defs) != 0 {
		t.Errorf("unexpected defaults: %v", defs)
	}
	if len(want) == 0 {
		want = nil
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("failures:\n got: %q\nwant: %q", got, want)
	}
}

// With hideKeys (the data source's sensitive = true), a key the schema
// does not name is written […] and a key it names still shows (reference
// §6).
func TestSchema_hideKeysWritesKeysTheSchemaDoesNotNameHidden(t *testing.T) {
	s := mustCompile(t, `v: {properties: {a: {}}, additionalProperties: {properties: {port: {type: integer}}, required: [name]}}`)
	vars := map[string]value.Value{"v": mapOf("a", int64(1), "HUNTER2VAR", mapOf("port", "x"), "zz", value.NewMap(0))}
	_, got, _ := s.CheckWith(lookupIn(vars), true)
	want := []string{`v[…]: missing required property "name"`, "v[…].port: expected integer, got string", `v[…]: missing required property "name"`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("hidden:\n got: %q\nwant: %q", got, want)
	}
	_, got, _ = s.CheckWith(lookupIn(vars), false)
	want = []string{`v.HUNTER2VAR: missing required property "name"`, "v.HUNTER2VAR.port: expected integer, got string", `v.zz: missing required property "name"`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("named:\n got: %q\nwant: %q", got, want)
	}
}

func TestSchema_typeMismatchNamesPathAndBothTypes(t *testing.T) {
	schema := `
services:
  type: array
  items:
    type: object
    properties:
      name: {type: string}
      ha: {type: boolean}
`
	vars := map[string]value.Value{"services": []value.Value{
		mapOf("name", "cart", "ha", true),
		mapOf("name", "catalog", "ha", "yes"),
	}}
	expectFailures(t, schema, vars, "services[1].ha: expected boolean, got string")
}

func TestSchema_shorthandMeansType(t *testing.T) {
	schema := "env: string\nreplicas: integer\nratio: number\non: boolean\nitems: array\nconf: object\nnothing: \"null\"\n"
	ok := map[string]value.Value{
		"env": "prod", "replicas": int64(3), "ratio": 0.5, "on": true,
		"items": []value.Value{}, "conf": value.NewMap(0), "nothing": nil,
	}
	expectFailures(t, schema, ok)
	bad := map[string]value.Value{
		"env": int64(5), "replicas": 2.5, "ratio": "x", "on": nil,
		"items": value.NewMap(0), "conf": []value.Value{}, "nothing": false,
	}
	expectFailures(t, schema, bad,
		"conf: expected object, got array",
		"env: expected string, got integer",
		"items: expected array, got object",
		"nothing: expected null, got boolean",
		"on: expected boolean, got null",
		"ratio: expected number, got string",
		"replicas: expected integer, got number",
	)
}

func TestSchema_keywordMessages(t *testing.T) {
	cases := []struct {
		name   string
		schema string
		value  value.Value
		want   []string
	}{
		{"type list", `v: {type: [string, integer]}`, true,
			[]string{"v: expected integer or string, got boolean"}},
		{"items", `v: {type: array, items: {type: integer}}`, []value.Value{int64(1), "two", int64(3), 4.5},
			[]string{"v[1]: expected integer, got string", "v[3]: expected integer, got number"}},
		{"properties", `v: {properties: {port: {type: integer}, host: {type: string}}}`, mapOf("host", int64(1), "port", "80"),
			[]string{"v.host: expected string, got integer", "v.port: expected integer, got string"}},
		{"pattern", `v: {type: string, pattern: "^[a-z]+$"}`, "Hello",
			[]string{`v: does not match pattern "^[a-z]+$"`}},
		{"pattern with backslash", `v: {pattern: '^\d+$'}`, "abc",
			[]string{`v: does not match pattern "^\\d+$"`}},
		{"enum", `v: {enum: [dev, prod]}`, "staging",
			[]string{`v: must be one of ["dev", "prod"]`}},
		{"enum mixed", `v: {enum: [1, "a", null, true, {k: v}]}`, "b",
			[]string{`v: must be one of [1, "a", null, true, {"k":"v"}]`}},
		{"const", `v: {const: on-call}`, "off",
			[]string{`v: must be "on-call"`}},
		{"minimum", `v: {minimum: 1}`, int64(0),
			[]string{"v: must be at least 1"}},
		{"maximum", `v: {maximum: 10}`, int64(11),
			[]string{"v: must be at most 10"}},
		{"maximum fractional", `v: {maximum: 2.5}`, 2.75,
			[]string{"v: must be at most 2.5"}},
		{"exclusiveMinimum", `v: {exclusiveMinimum: 0}`, int64(0),
			[]string{"v: must be greater than 0"}},
		{"exclusiveMaximum", `v: {exclusiveMaximum: 100}`, int64(100),
			[]string{"v: must be less than 100"}},
		{"multipleOf", `v: {multipleOf: 5}`, int64(12),
			[]string{"v: must be a multiple of 5"}},
		{"minLength", `v: {minLength: 8}`, "short",
			[]string{"v: must be at least 8 characters long"}},
		{"maxLength", `v: {maxLength: 3}`, "toolong",
			[]string{"v: must be at most 3 characters long"}},
		{"required", `v: {type: object, required: [name, port, host]}`, mapOf("port", int64(1)),
			[]string{`v: missing required property "host"`, `v: missing required property "name"`}},
		{"additionalProperties false", `v: {properties: {a: {}}, additionalProperties: false}`, mapOf("a", int64(1), "zz", int64(2), "b", int64(3)),
			[]string{"v.b: property is not allowed", "v.zz: property is not allowed"}}, // keys are named, values never (reference §6)
		{"additionalProperties schema", `v: {additionalProperties: {type: string}}`, mapOf("a", "x", "b", int64(2)),
			[]string{"v.b: expected string, got integer"}},
		{"additionalProperties, a nested key the schema names", `v: {additionalProperties: {properties: {port: {type: integer}}}}`, mapOf("HUNTER2VAR", mapOf("port", "x")),
			[]string{"v.HUNTER2VAR.port: expected integer, got string"}},
		{"required under a key of the variable", `v: {additionalProperties: {required: [name]}}`, mapOf("HUNTER2VAR", value.NewMap(0)),
			[]string{`v.HUNTER2VAR: missing required property "name"`}},
		{"minItems", `v: {minItems: 2}`, []value.Value{"x"},
			[]string{"v: must have at least 2 items, got 1"}},
		{"maxItems", `v: {maxItems: 1}`, []value.Value{"x", "y"},
			[]string{"v: must have at most 1 item, got 2"}},
		{"minProperties", `v: {minProperties: 1}`, value.NewMap(0),
			[]string{"v: must have at least 1 property, got 0"}},
		{"maxProperties", `v: {maxProperties: 1}`, mapOf("a", int64(1), "b", int64(2)),
			[]string{"v: must have at most 1 property, got 2"}},
		{"uniqueItems", `v: {uniqueItems: true}`, []value.Value{"a", "b", "a"},
			[]string{"v: items must be unique, but [0] and [2] are equal"}},
		{"format email", `v: {format: email}`, "not-an-email",
			[]string{"v: is not a valid email"}},
		{"format ipv4", `v: {format: ipv4}`, "300.1.1.1",
			[]string{"v: is not a valid ipv4"}},
		{"format date-time", `v: {format: date-time}`, "yesterday",
			[]string{"v: is not a valid date-time"}},
		{"contains", `v: {contains: {const: admin}}`, []value.Value{"user"},
			[]string{"v: no item matches the contains schema"}},
		{"not", `v: {not: {type: string}}`, "x",
			[]string{`v: must not match the schema in "not"`}},
		{"anyOf", `v: {anyOf: [{type: string}, {type: integer}]}`, true,
			[]string{"v: must match at least one schema in anyOf"}},
		{"oneOf none", `v: {oneOf: [{type: string}, {type: integer}]}`, true,
			[]string{"v: must match exactly one schema in oneOf, but matches none"}},
		{"oneOf two", `v: {oneOf: [{type: integer}, {minimum: 0}]}`, int64(5),
			[]string{"v: must match exactly one schema in oneOf, but matches [0] and [1]"}},
		{"allOf lists each failure", `v: {allOf: [{minimum: 10}, {multipleOf: 3}]}`, int64(4),
			[]string{"v: must be a multiple of 3", "v: must be at least 10"}},
		{"dependentRequired", `v: {dependentRequired: {tls: [cert]}}`, mapOf("tls", true),
			[]string{`v: property "cert" is required when "tls" is present`}},
		{"dependencies of draft 7", "v:\n  $schema: http://json-schema.org/draft-07/schema#\n  dependencies: {tls: [cert, key]}\n", mapOf("tls", true),
			[]string{`v: property "cert" is required when "tls" is present`, `v: property "key" is required when "tls" is present`}},
		{"propertyNames", `v: {propertyNames: {pattern: "^[a-z]+$"}}`, mapOf("Bad", int64(1)),
			[]string{"v.Bad: property name does not match propertyNames"}},
		{"false schema", `v: {properties: {legacy: false}}`, mapOf("legacy", int64(1)),
			[]string{"v.legacy: is not allowed"}},
		{"if then", `v: {if: {properties: {tls: {const: true}}}, then: {required: [cert]}}`, mapOf("tls", true),
			[]string{`v: missing required property "cert"`}},
		{"ref to defs", "v:\n  $defs: {port: {type: integer, maximum: 65535}}\n  items: {$ref: '#/$defs/port'}\n", []value.Value{int64(80), int64(70000)},
			[]string{"v[1]: must be at most 65535"}},
		{"non-identifier keys the schema names are quoted", `v: {properties: {"app.kubernetes.io/name": {type: string}}}`, mapOf("app.kubernetes.io/name", int64(1)),
			[]string{`v["app.kubernetes.io/name"]: expected string, got integer`}},
		{"keys the schema names in properties and required are shown", `v: {properties: {a: {properties: {b: {type: string}}}}, additionalProperties: {required: [c]}}`,
			mapOf("a", mapOf("b", int64(1)), "x", mapOf("c", mapOf("d", 1))),
			[]string{`v.a.b: expected string, got integer`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expectFailures(t, c.schema, map[string]value.Value{"v": c.value}, c.want...)
		})
	}
}

// Only keys that stand where keywords stand are checked for typos: property
// names, $defs names and data may be anything, and a key close to no
// keyword is an annotation or extension, which JSON Schema allows.
func TestSchema_keywordCheckLeavesNamesDataAndExtensionsAlone(t *testing.T) {
	schema := `
cfg:
  type: object
  description: minLen and maxLen are property names here
  x-kubernetes-preserve-unknown-fields: true
  myAnnotation: anything
  unit: seconds
  info: words two edits from not and if are free for annotations
  kind: config
  example: {minLen: 1}
  properties:
    minLen: {type: integer, title: minimal length}
    maxLen: {type: integer, default: 5, examples: [1, 2]}
  required: [minLen]
  enum: [{minLen: 1}, {minLen: 2, maxLen: 3}]
  $defs:
    minimun: {type: integer}
`
	expectFailures(t, schema, map[string]value.Value{"cfg": mapOf("minLen", int64(1))})
	expectFailures(t, schema, map[string]value.Value{"cfg": mapOf("minLen", int64(2), "maxLen", int64(3))})
}

func TestSchema_validValuesPass(t *testing.T) {
	schema := `
env: {type: string, enum: [dev, prod]}
replicas: {type: integer, minimum: 1, maximum: 10}
name: {type: string, pattern: "^[a-z]+$", format: hostname}
ratio: {type: number, maximum: 1}
tags: {type: object, additionalProperties: {type: string}, required: [team]}
ports: {type: array, minItems: 1, uniqueItems: true, items: {type: integer}}
`
	vars := map[string]value.Value{
		"env": "prod", "replicas": int64(10), "name": "cart", "ratio": int64(1),
		"tags":  mapOf("team", "sre", "owner", "platform"),
		"ports": []value.Value{int64(80), int64(443)},
	}
	expectFailures(t, schema, vars)
}

func TestSchema_integersKeepFullPrecision(t *testing.T) {
	schema := `v: {type: integer, maximum: 9007199254740993}`
	expectFailures(t, schema, map[string]value.Value{"v": int64(9007199254740993)})
	expectFailures(t, schema, map[string]value.Value{"v": int64(9007199254740994)}, "v: must be at most 9007199254740993")
	// A whole double is an integer to JSON Schema.
	expectFailures(t, `v: integer`, map[string]value.Value{"v": 2.0})
}

func TestSchema_infinityComparesAndNaNIsReported(t *testing.T) {
	expectFailures(t, `v: {maximum: 1.0e308}`, map[string]value.Value{"v": math.Inf(1)}, "v: must be at most 1e+308")
	expectFailures(t, `v: {minimum: -5}`, map[string]value.Value{"v": math.Inf(-1)}, "v: must be at least -5")
	expectFailures(t, `v: {type: object}`, map[string]value.Value{"v": mapOf("a", []value.Value{math.NaN()})}, "v.a[0]: NaN is not a JSON number and cannot be checked")
}

func TestSchema_everyFailureIsListedInPathOrder(t *testing.T) {
	schema := `
services:
  type: array
  items:
    type: object
    required: [name]
    properties:
      name: {type: string, pattern: "^[a-z-]+$"}
      ha: {type: boolean}
      port: {type: integer, minimum: 1, maximum: 65535}
env: {enum: [dev, prod]}
`
	var list []value.Value
	for i := 0; i < 12; i++ {
		list = append(list, mapOf("name", "svc", "ha", false, "port", int64(80)))
	}
	list[2] = mapOf("ha", "no", "port", int64(0))
	list[10] = mapOf("name", "Bad_Name", "port", "http")
	vars := map[string]value.Value{"services": list, "env": "qa"}
	expectFailures(t, schema, vars,
		`env: must be one of ["dev", "prod"]`,
		`services[2]: missing required property "name"`,
		"services[2].ha: expected boolean, got string",
		"services[2].port: must be at least 1",
		`services[10].name: does not match pattern "^[a-z-]+$"`,
		"services[10].port: expected integer, got string",
	)
}

func TestSchema_missingVariableIsAnError(t *testing.T) {
	s := mustCompile(t, "env: string\nregion: {type: string}\n")
	defs, failures, _ := s.Check(lookupIn(map[string]value.Value{"env": "dev"}))
	if len(defs) != 0 {
		t.Errorf("defaults = %v", defs)
	}
	want := []string{"region: required variable is missing"}
	if !reflect.DeepEqual(failures, want) {
		t.Errorf("failures = %q, want %q", failures, want)
	}
}

func TestSchema_defaultIsBoundWhenAbsent(t *testing.T) {
	schema := `
replicas: {type: integer, default: 2}
ratio: {type: number, default: 0.5}
env: {type: string, default: dev}
labels:
  type: object
  default: {zeta: z, alpha: a, nested: {b: 1, a: [x, 2]}}
off: {default: null}
given: {type: integer, default: 7}
`
	s := mustCompile(t, schema)
	defs, failures, _ := s.Check(lookupIn(map[string]value.Value{"given": int64(3)}))
	if failures != nil {
		t.Fatalf("failures = %q", failures)
	}
	want := []Binding{
		{"replicas", int64(2)},
		{"ratio", 0.5},
		{"env", "dev"},
		{"labels", mapOf("zeta", "z", "alpha", "a", "nested", mapOf("b", int64(1), "a", []value.Value{"x", int64(2)}))},
		{"off", nil},
	}
	if !reflect.DeepEqual(defs, want) {
		t.Errorf("defaults:\n got %#v\nwant %#v", defs, want)
	}
	// The bound default is a copy: changing it does not change the schema.
	defs[3].Value.(*value.Map).Set("zeta", "changed")
	defs2, _, _ := s.Check(lookupIn(map[string]value.Value{"given": int64(3)}))
	if got, _ := defs2[3].Value.(*value.Map).Get("zeta"); got != "z" {
		t.Errorf("default was shared: zeta = %v", got)
	}
}

// During terraform plan a variable may hold Unknowns. What is already known
// is checked, so a wrong value fails the plan and not the apply; a failure
// that an Unknown could still change is left for the apply.
func TestSchema_unknownValuesCheckWhatIsKnown(t *testing.T) {
	schema := `
a: {type: string, enum: [x]}
b: {type: array, items: {type: integer}}
c: {type: object, properties: {n: {type: integer}}}
d: {type: string}
`
	vars := map[string]value.Value{
		"a": value.Unknown{},
		"b": []value.Value{"not-an-int", value.Unknown{}},
		"c": mapOf("n", "bad", "later", mapOf("x", value.Unknown{})),
		"d": int64(1),
	}
	expectFailures(t, schema, vars,
		"b[0]: expected integer, got string",
		"c.n: expected integer, got string",
		"d: expected string, got integer")
}

func TestSchema_unknownValuesKeepKnownShapeFailures(t *testing.T) {
	// Keys, lengths and kinds are known even when values inside are not.
	schema := `
m: {type: object, required: [name, port], additionalProperties: false, properties: {name: {}, image: {}}}
l: {type: array, minItems: 3}
s: {type: string}
`
	vars := map[string]value.Value{
		"m": mapOf("image", value.Unknown{}, "extra", value.Unknown{}),
		"l": []value.Value{value.Unknown{}},
		"s": mapOf("x", value.Unknown{}),
	}
	expectFailures(t, schema, vars,
		"l: must have at least 3 items, got 1",
		`m: missing required property "name"`,
		`m: missing required property "port"`,
		"m.extra: property is not allowed",
		"s: expected string, got object")
}

func TestSchema_unknownValuesDropFailuresTheyCouldChange(t *testing.T) {
	// Each of these fails with the Unknown read as null, and could pass
	// once it is known: an enum or const of a whole object, unique items,
	// an anyOf, a not, and a then branch chosen by an if that read it.
	schema := `
e: {enum: [{a: 1}]}
u: {uniqueItems: true}
any: {anyOf: [{properties: {a: {const: 1}}}, {properties: {b: {const: 2}}}]}
neg: {not: {properties: {a: {type: "null"}}}}
cond:
  if: {properties: {tier: {const: prod}}}
  then: {properties: {replicas: {minimum: 3}}}
  else: {properties: {replicas: {maximum: 1}}}
viaRef:
  $defs: {small: {properties: {replicas: {maximum: 1}}}}
  if: {properties: {tier: {const: prod}}}
  else: {$ref: "#/$defs/small"}
`
	vars := map[string]value.Value{
		"e":      mapOf("a", value.Unknown{}),
		"u":      []value.Value{value.Unknown{}, nil},
		"any":    mapOf("a", value.Unknown{}, "b", int64(3)),
		"neg":    mapOf("a", value.Unknown{}),
		"cond":   mapOf("tier", value.Unknown{}, "replicas", int64(2)),
		"viaRef": mapOf("tier", value.Unknown{}, "replicas", int64(2)),
	}
	expectFailures(t, schema, vars)

	// With the same values known, each of them fails.
	known := map[string]value.Value{
		"e":      mapOf("a", int64(2)),
		"u":      []value.Value{nil, nil},
		"any":    mapOf("a", int64(2), "b", int64(3)),
		"neg":    mapOf("a", nil),
		"cond":   mapOf("tier", "prod", "replicas", int64(2)),
		"viaRef": mapOf("tier", "dev", "replicas", int64(2)),
	}
	expectFailures(t, schema, known,
		"any: must match at least one schema in anyOf",
		"cond.replicas: must be at least 3",
		"e: must be one of [{\"a\":1}]",
		`neg: must not match the schema in "not"`,
		"u: items must be unique, but [0] and [1] are equal",
		"viaRef.replicas: must be at most 1")
}

func TestSchema_failuresNeverPrintTheValue(t *testing.T) {
	const secret = "hunter2-S3CR3T-value"
	schema := `
a: {enum: [dev, prod]}
b: {const: fixed}
c: {pattern: "^[0-9]+$"}
d: {format: email}
e: {maxLength: 3}
f: {type: integer}
g: {type: array, items: {enum: [x]}, uniqueItems: true}
h: {format: ipv4}
i: {not: {type: string}}
j: {anyOf: [{type: integer}, {const: zz}]}
k: {type: object, propertyNames: {maxLength: 2}, additionalProperties: {format: uri}}
`
	vars := map[string]value.Value{}
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "h", "i", "j"} {
		vars[n] = secret
	}
	vars["g"] = []value.Value{secret, secret}
	vars["k"] = mapOf("ok", secret)
	s := mustCompile(t, schema)
	_, failures, _ := s.Check(lookupIn(vars))
	if len(failures) != 13 {
		t.Errorf("got %d failures, want 13: %q", len(failures), failures)
	}
	for _, f := range failures {
		if strings.Contains(f, "hunter2") || strings.Contains(f, "S3CR3T") {
			t.Errorf("failure leaks the value: %q", f)
		}
	}
}

func TestSchema_compileErrorsPointAtTheSchemaNode(t *testing.T) {
	cases := []struct {
		name, schema, want string
	}{
		{"not a mapping", "- env\n",
			"1:1: $schema must be a mapping from variable name to schema, e.g. `env: string` or `replicas: {type: integer}`"},
		{"unknown shorthand", "env: strin\n",
			`1:6: invalid schema for "env": "strin" is not a type; expected a mapping, or one of array, boolean, integer, null, number, object, string`},
		{"null schema", "env:\n",
			`1:5: invalid schema for "env": expected a mapping, or a type name such as string`},
		{"unknown type", "env:\n  type: strin\n",
			`2:9: invalid schema for "env": type: unknown type "strin"; expected one of array, boolean, integer, null, number, object, string`},
		{"nested unknown type", "cfg:\n  properties:\n    port:\n      type: int\n",
			`4:13: invalid schema for "cfg": properties.port.type: unknown type "int"; expected one of array, boolean, integer, null, number, object, string`},
		{"wrong keyword type", "n:\n  type: integer\n  minimum: \"5\"\n",
			`3:12: invalid schema for "n": minimum: expected number, got string`},
		{"required not a list", "o: {required: name}\n",
			`1:15: invalid schema for "o": required: expected array, got string`},
		{"bad pattern", "s: {pattern: \"(\"}\n",
			"1:14: invalid schema for \"s\": pattern: not a valid regular expression: error parsing regexp: missing closing ): `(`"},
		{"external ref", "s: {$ref: \"other.yaml\"}\n",
			`1:11: invalid schema for "s": $ref "other.yaml": a schema may only refer to itself, e.g. "#/$defs/name"`},
		{"file ref", "s: {items: {$ref: \"file:///etc/passwd\"}}\n",
			`1:19: invalid schema for "s": $ref "file:///etc/passwd": a schema may only refer to itself, e.g. "#/$defs/name"`},
		{"dangling ref", "s: {$ref: \"#/$defs/nope\"}\n",
			`1:4: invalid schema for "s": json-pointer in "#/$defs/nope" not found`},
		{"duplicate variable", "env: string\nregion: string\nenv: integer\n",
			`3:1: variable "env" appears twice in $schema (first at line 1)`},
		{"duplicate keyword", "env:\n  type: string\n  type: integer\n",
			`3:3: invalid schema for "env": key "type" appears twice (first at line 2)`},
		{"merge key", "base: &b {type: string}\nenv:\n  <<: *b\n",
			`3:3: invalid schema for "env": merge keys (<<) are not supported`},
		{"custom tag", "env: {type: !secret string}\n",
			`1:13: invalid schema for "env": unsupported tag !secret`},
		{"infinite bound", "n: {maximum: .inf}\n",
			`1:14: invalid schema for "n": numbers in a schema must be finite`},
		{"key not a name", "[a]: string\n",
			"1:1: $schema keys must be variable names"},
		{"default fails its schema", "replicas: {type: integer, maximum: 10, default: 11}\n",
			`1:49: default for "replicas" does not match its schema: replicas: must be at most 10`},
		{"required on the property", "name: {type: string, required: true}\n",
			`1:32: invalid schema for "name": required: expected array, got boolean; required lists the keys an object must have, on the object: required: [name, port]`},
		{"misspelt keyword", "name: {type: string, minLenght: 3}\n",
			`1:22: invalid schema for "name": unknown keyword "minLenght"; did you mean "minLength"? (JSON Schema ignores unknown keywords, so a misspelt one would check nothing; for a note of your own, use description, $comment or an x- key)`},
		{"shortened keyword", "name: {type: string, maxLen: 63}\n",
			`1:22: invalid schema for "name": unknown keyword "maxLen"; did you mean "maxLength"? (JSON Schema ignores unknown keywords, so a misspelt one would check nothing; for a note of your own, use description, $comment or an x- key)`},
		{"keyword of another dialect", "port: {type: integer, max: 65535}\n",
			`1:23: invalid schema for "port": unknown keyword "max"; did you mean "maximum"? (JSON Schema ignores unknown keywords, so a misspelt one would check nothing; for a note of your own, use description, $comment or an x- key)`},
		{"misspelt keyword deep inside", "svc:\n  type: object\n  properties:\n    ports:\n      type: array\n      items:\n        anyOf:\n          - {type: integer, minimun: 1}\n",
			`8:29: invalid schema for "svc": unknown keyword "minimun"; did you mean "minimum"? (JSON Schema ignores unknown keywords, so a misspelt one would check nothing; for a note of your own, use description, $comment or an x- key)`},
		{"misspelt keyword in $defs", "p:\n  $ref: \"#/$defs/port\"\n  $defs:\n    port: {type: integer, maximun: 10}\n",
			`4:27: invalid schema for "p": unknown keyword "maximun"; did you mean "maximum"? (JSON Schema ignores unknown keywords, so a misspelt one would check nothing; for a note of your own, use description, $comment or an x- key)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := compileErr(t, c.schema); got != c.want {
				t.Errorf("\n got: %s\nwant: %s", got, c.want)
			}
		})
	}
}

func TestSchema_aliasBombInSchemaFailsFast(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 {type: string}\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d {allOf: [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]}\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	got := compileErr(t, b.String())
	want := `invalid schema for "a4": the schema has more than 10000 nodes once aliases are expanded`
	if !strings.HasSuffix(got, want) {
		t.Errorf("got %s\nwant suffix %s", got, want)
	}
}

func TestSchema_legitimateAliasesWork(t *testing.T) {
	schema := `
port: &port {type: integer, minimum: 1, maximum: 65535}
admin_port: *port
ports: {type: array, items: *port}
`
	vars := map[string]value.Value{"port": int64(80), "admin_port": int64(0), "ports": []value.Value{int64(443), int64(70000)}}
	expectFailures(t, schema, vars, "admin_port: must be at least 1", "ports[1]: must be at most 65535")
}

func TestSchema_booleanSchemas(t *testing.T) {
	expectFailures(t, "anything: true\n", map[string]value.Value{"anything": mapOf("x", []value.Value{nil})})
	expectFailures(t, "never: false\n", map[string]value.Value{"never": int64(1)}, "never: is not allowed")
}

func TestSchema_draftCanBeChosenBySchemaKeyword(t *testing.T) {
	// Draft 7 has no dependentRequired; the keyword is then ignored.
	schema := "v:\n  $schema: http://json-schema.org/draft-07/schema#\n  dependentRequired: {tls: [cert]}\n  maximum: 3\n"
	expectFailures(t, schema, map[string]value.Value{"v": int64(4)}, "v: must be at most 3")
	expectFailures(t, schema, map[string]value.Value{"v": mapOf("tls", true)})
}

func TestSchema_checkIsSafeForConcurrentUse(t *testing.T) {
	s := mustCompile(t, `
services:
  type: array
  items: {type: object, properties: {ha: {type: boolean}, name: {pattern: "^[a-z]+$"}}}
`)
	vars := map[string]value.Value{"services": []value.Value{mapOf("ha", "yes", "name", "X")}}
	want := []string{`services[0].ha: expected boolean, got string`, `services[0].name: does not match pattern "^[a-z]+$"`}
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if _, got, _ := s.Check(lookupIn(vars)); !reflect.DeepEqual(got, want) {
					errs <- fmt.Sprintf("%q", got)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent check gave %s", e)
	}
}

func BenchmarkSchema_compile(b *testing.B) {
	n := parseNode(b, `
services:
  type: array
  items: {type: object, required: [name], properties: {name: {type: string, pattern: "^[a-z]+$"}, ha: {type: boolean}}}
env: {enum: [dev, prod]}
`)
	for b.Loop() {
		if _, err := Compile(n); err != nil {
			b.Fatal(err.Msg)
		}
	}
}

func BenchmarkSchema_check(b *testing.B) {
	s := mustCompile(b, `
services:
  type: array
  items: {type: object, required: [name], properties: {name: {type: string, pattern: "^[a-z]+$"}, ha: {type: boolean}}}
env: {enum: [dev, prod]}
`)
	var list []value.Value
	for i := 0; i < 20; i++ {
		list = append(list, mapOf("name", "svc", "ha", true))
	}
	vars := map[string]value.Value{"services": list, "env": "prod"}
	for b.Loop() {
		if _, f, _ := s.Check(lookupIn(vars)); f != nil {
			b.Fatal(f)
		}
	}
}
