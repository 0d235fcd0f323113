package check

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestVarSchemaType_typesWhatEveryAcceptedValueHas pins the CEL type each
// kind of schema gives its variable: only what every value the schema
// accepts has at render, dyn otherwise.
func TestVarSchemaType_typesWhatEveryAcceptedValueHas(t *testing.T) {
	cases := []struct{ schema, want string }{
		{`string`, `string`},
		{`{type: string, format: date-time}`, `string`},
		{`{type: integer}`, `int`},
		{`{type: boolean}`, `bool`},
		{`{type: number}`, `dyn`},
		{`{type: array, items: {type: string}}`, `list(string)`},
		{`{type: array}`, `list(dyn)`},
		{`{type: object, properties: {a: {type: string}}}`, `x_celyaml_schema_v`},
		{`{type: object, properties: {a: {type: string}}, additionalProperties: false}`, `x_celyaml_schema_v`},
		{`{type: object, properties: {a: {type: string}}, additionalProperties: true}`, `map(string, dyn)`},
		{`{type: object, additionalProperties: {type: integer}}`, `map(string, int)`},
		{`{type: object}`, `map(string, dyn)`},
		{`{type: [string, "null"]}`, `dyn`},
		{`{type: string, nullable: true}`, `dyn`},
		{`{x-kubernetes-int-or-string: true}`, `dyn`},
		{`{type: object, x-kubernetes-preserve-unknown-fields: true}`, `dyn`},
		{`{anyOf: [{type: string}, {type: integer}]}`, `dyn`},
		{`{type: string, allOf: [{minLength: 1}]}`, `dyn`},
		{`{enum: [a, 1]}`, `dyn`},
		{`{$ref: "#/$defs/x"}`, `dyn`},
		{`{$include: values.schema.json}`, `dyn`},
		{`true`, `dyn`},
		{`{}`, `dyn`},
	}
	for _, c := range cases {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(c.schema), &n); err != nil {
			t.Fatalf("%s: %v", c.schema, err)
		}
		if got := varSchemaType("v", n.Content[0]).CelType().String(); got != c.want {
			t.Errorf("%s: got %s, want %s", c.schema, got, c.want)
		}
	}
}

// TestVarSchemaType_objectFieldsAreTyped checks that an object's fields,
// nested ones included, carry their types, each object its own name.
func TestVarSchemaType_objectFieldsAreTyped(t *testing.T) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(`{type: object, properties: {image: {type: object, properties: {tag: {type: string}}}, ports: {type: array, items: {type: object, properties: {port: {type: integer}}}}}}`), &n); err != nil {
		t.Fatal(err)
	}
	v := varSchemaType("values", n.Content[0])
	got := map[string]string{}
	for _, p := range [][]string{{"image"}, {"image", "tag"}, {"ports"}} {
		got[p[len(p)-1]] = pathType(v, p).CelType().String()
	}
	got["port"] = pathType(pathType(v, []string{"ports"}).ElemType, []string{"port"}).CelType().String()
	want := map[string]string{"image": "x_celyaml_schema_values.image", "tag": "string",
		"ports": "list(x_celyaml_schema_values.ports.@idx)", "port": "int"}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: got %s, want %s", k, got[k], w)
		}
	}
}
