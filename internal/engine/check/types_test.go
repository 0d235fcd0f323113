package check

import (
	"strconv"
	"testing"

	"go.yaml.in/yaml/v3"
	apiservercel "k8s.io/apiserver/pkg/cel"
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
		{`{$ref: "#/$defs/x", $defs: {x: {type: integer}}}`, `int`},
		{`{$ref: "#/definitions/x", definitions: {x: {type: array, items: {type: string}}}}`, `list(string)`},
		{`{$ref: "#/definitions/x", description: d, definitions: {x: {type: boolean}}}`, `bool`},
		{`{$ref: "#/$defs/a~1b", $defs: {a/b: {type: string}}}`, `string`},
		{`{$ref: "#/$defs/a%20b", $defs: {a b: {type: string}}}`, `string`},
		{`{$ref: "#", type: object}`, `dyn`},
		{`{$ref: "#/$defs/x", properties: {a: {type: string}}, $defs: {x: {type: object}}}`, `dyn`},
		{`{$ref: "#/$defs/x", $defs: {x: {$ref: "#/$defs/y"}, y: {$ref: "#/$defs/x"}}}`, `dyn`},
		{`{$ref: "#anchor", $defs: {x: {$anchor: anchor, type: string}}}`, `dyn`},
		{`{$ref: "other.json#/x"}`, `dyn`},
		{`{$ref: "#/$defs/x", $defs: {x: {$id: "x.json", type: string}}}`, `dyn`},
		{`{$ref: 1}`, `dyn`},
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

// TestVarSchemaType_localRefsAreFollowed checks that a $ref inside an
// object's properties or items types the field as the schema it points
// at, and that a recursive one stops at the cycle, dyn.
func TestVarSchemaType_localRefsAreFollowed(t *testing.T) {
	var n yaml.Node
	src := `{type: object, properties: {image: {$ref: "#/definitions/image"}, sidecars: {type: array, items: {$ref: "#/definitions/image"}},
	  tree: {$ref: "#/definitions/node"}},
	  definitions: {image: {type: object, properties: {tag: {type: string}}},
	    node: {type: object, properties: {name: {type: string}, children: {type: array, items: {$ref: "#/definitions/node"}}}}}}`
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	v := varSchemaType("values", n.Content[0])
	got := map[string]string{
		"image.tag":      pathType(v, []string{"image", "tag"}).CelType().String(),
		"sidecars[].tag": pathType(pathType(v, []string{"sidecars"}).ElemType, []string{"tag"}).CelType().String(),
		"tree.name":      pathType(v, []string{"tree", "name"}).CelType().String(),
		"tree.children":  pathType(v, []string{"tree", "children"}).CelType().String(),
	}
	want := map[string]string{"image.tag": "string", "sidecars[].tag": "string", "tree.name": "string", "tree.children": "list(dyn)"}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: got %s, want %s", k, got[k], w)
		}
	}
}

// TestVarSchemaType_fanningRefsStayBounded checks that a schema whose
// $refs fan out (each definition naming the next twice) gives a type of
// bounded size, which the checker's environment walks in full, a shared
// type at each use: a few levels are typed through; forty (2^40 paths)
// stop at the bound, dyn.
func TestVarSchemaType_fanningRefsStayBounded(t *testing.T) {
	fanning := func(levels int) *apiservercel.DeclType {
		last := "d" + strconv.Itoa(levels)
		defs := map[string]any{last: map[string]any{"type": "string"}}
		for i := range levels {
			next := map[string]any{"$ref": "#/$defs/d" + strconv.Itoa(i+1)}
			defs["d"+strconv.Itoa(i)] = map[string]any{"type": "object", "properties": map[string]any{"a": next, "b": next}}
		}
		return fileSchemaType("v", map[string]any{"$ref": "#/$defs/d0", "$defs": defs})
	}
	if got := pathType(fanning(5), []string{"a", "b", "a", "b", "b"}).CelType().String(); got != "string" {
		t.Errorf("5 levels: got %s, want string", got)
	}
	if n := expandedSize(fanning(40), 4*maxTypedSchemas); n > 2*maxTypedSchemas {
		t.Errorf("40 levels: the type spans %d types or more, want at most %d", n, 2*maxTypedSchemas)
	}
}

// expandedSize counts the types of t as a walk over it meets them, a
// shared one at each use, up to limit.
func expandedSize(t *apiservercel.DeclType, limit int) int {
	n := 1
	var kids []*apiservercel.DeclType
	switch {
	case t.IsObject():
		for _, f := range t.Fields {
			kids = append(kids, f.Type)
		}
	case t.IsList() || t.IsMap():
		kids = append(kids, t.ElemType)
	}
	for _, k := range kids {
		if n >= limit {
			return n
		}
		n += expandedSize(k, limit-n)
	}
	return n
}
