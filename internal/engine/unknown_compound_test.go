package engine

import (
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// An unknown that came with a collection, object or tuple type keeps all
// of it inside the engine (reference §4 $schema, the unknown-values
// guide): through a bare read, a $let, and a field of it, which has its
// attribute's or element's type; a `$schema` gives a value unknown as a
// whole the type its properties, items and additionalProperties declare,
// so that `values.image` is an unknown string.
func TestRender_compoundUnknownsKeepTheirType(t *testing.T) {
	svc := value.ObjectOf(map[string]value.Type{
		"image":    value.TypeString,
		"replicas": value.TypeNumber,
		"args":     value.ListOf(value.TypeString),
		"env":      value.MapOf(value.TypeString),
		"probe":    value.ObjectOf(map[string]value.Type{"path": value.TypeString}),
	})
	vars := map[string]value.Value{
		"args":   value.Unknown{Type: value.ListOf(value.TypeString)},
		"labels": value.Unknown{Type: value.MapOf(value.TypeString)},
		"svc":    value.Unknown{Type: svc},
		"pair":   value.Unknown{Type: value.TupleOf(value.TypeString, value.TypeNumber)},
		"values": value.Unknown{},
		"held":   mapOf("svc", value.Unknown{Type: svc}),
	}
	schema := `$schema:
  values:
    type: object
    properties:
      image: {type: string}
      replicas: {type: integer}
      tags: {type: array, items: {type: string}}
      labels: {type: object, additionalProperties: {type: string}}
      nested: {type: object, properties: {on: {type: boolean}}}
`
	cases := []struct{ name, tmpl, want string }{
		{"a bare list", "v: {$eval: '${{ args }}'}\n", "{v:?list(string)}"},
		{"a bare map", "v: {$eval: '${{ labels }}'}\n", "{v:?map(string)}"},
		{"a bare tuple", "v: {$eval: '${{ pair }}'}\n", "{v:?tuple([string, number])}"},
		{"a $let keeps the type", "$let: {a: args}\nv: {$eval: '${{ a }}'}\n", "{v:?list(string)}"},
		{"an attribute of an unknown object", "v: {$eval: '${{ svc.image }}'}\n", "{v:?string}"},
		{"a number attribute", "v: {$eval: '${{ svc.replicas }}'}\n", "{v:?number}"},
		{"a list attribute", "v: {$eval: '${{ svc.args }}'}\n", "{v:?list(string)}"},
		{"an element of a map attribute", "v: {$eval: '${{ svc.env.HOME }}'}\n", "{v:?string}"},
		{"a nested attribute", "v: {$eval: '${{ svc.probe.path }}'}\n", "{v:?string}"},
		{"an attribute the type lacks is dynamic", "v: {$eval: '${{ svc.absent }}'}\n", "{v:?}"},
		{"an element of an unknown map", "v: {$eval: '${{ labels.app }}'}\n", "{v:?string}"},
		{"an unknown object held in a known map", "v: {$eval: '${{ held.svc.image }}'}\n", "{v:?string}"},
		{"$schema types a field of a value unknown as a whole", schema + "v: {$eval: '${{ values.image }}'}\n", "{v:?string}"},
		{"$schema: an integer property", schema + "v: {$eval: '${{ values.replicas }}'}\n", "{v:?number}"},
		{"$schema: items", schema + "v: {$eval: '${{ values.tags }}'}\n", "{v:?list(string)}"},
		{"$schema: additionalProperties", schema + "v: {$eval: '${{ values.labels.app }}'}\n", "{v:?string}"},
		{"$schema: a nested property", schema + "v: {$eval: '${{ values.nested.on }}'}\n", "{v:?bool}"},
		{"$schema: the value itself", schema + "v: {$eval: '${{ values }}'}\n",
			"{v:?object({image=string, labels=map(string), nested=object({on=bool}), replicas=number, tags=list(string)})}"},
	}
	e := New(Options{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := renderInline(t, e, c.tmpl, vars); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// Written: a primitive unknown is written with its type, any other
// dynamic, since no collection or object type promises the type of the
// value that replaces it at apply.
func TestType_writtenKeepsOnlyPrimitives(t *testing.T) {
	for _, c := range []struct {
		t    value.Type
		want string
	}{
		{value.TypeString, "string"},
		{value.TypeNumber, "number"},
		{value.TypeBool, "bool"},
		{value.TypeDynamic, "dynamic"},
		{value.ListOf(value.TypeString), "dynamic"},
		{value.SetOf(value.TypeString), "dynamic"},
		{value.MapOf(value.TypeNumber), "dynamic"},
		{value.TupleOf(value.TypeString), "dynamic"},
		{value.ObjectOf(map[string]value.Type{"a": value.TypeString}), "dynamic"},
	} {
		if got := c.t.Written().String(); got != c.want {
			t.Errorf("%s: written as %s, want %s", c.t, got, c.want)
		}
	}
}
