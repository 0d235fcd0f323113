package validate

import (
	"errors"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

func TestCheckStructural(t *testing.T) {
	s := widgetSchemas(t)
	cases := []struct {
		name string
		doc  string
		want []string
	}{
		{"wrong type", "spec: {maxDesired: many}", []string{
			"example.com/Widget/ns/w: <root>: Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
			`example.com/Widget/ns/w: spec.maxDesired: Invalid value: spec.maxDesired in body must be of type integer: "string"`,
		}},
		{"missing required", "spec: {minReplicas: 0}", []string{
			"example.com/Widget/ns/w: <root>: Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
			"example.com/Widget/ns/w: spec.maxDesired: Required value",
		}},
		{"enum", "spec: {maxDesired: 1, size: medium}", []string{
			"example.com/Widget/ns/w: <root>: Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
			`example.com/Widget/ns/w: spec.size: Unsupported value: supported values: "small", "large"`,
		}},
		{"pattern", "spec: {maxDesired: 1, color: Red}", []string{
			"example.com/Widget/ns/w: spec.color: Invalid value: spec.color in body should match '^[a-z]+$'",
		}},
		{"format", "spec: {maxDesired: 1, contact: not-an-address}", []string{
			"example.com/Widget/ns/w: <root>: Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
			"example.com/Widget/ns/w: spec.contact: Invalid value: spec.contact in body must be of type email",
		}},
		{"a failing value is never printed", "spec: {maxDesired: 1, contact: hunter2-secret, color: hunter2Secret, size: hunter2}", []string{
			"example.com/Widget/ns/w: <root>: Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
			"example.com/Widget/ns/w: spec.color: Too long: may not be more than 10 bytes",
			"example.com/Widget/ns/w: spec.contact: Invalid value: spec.contact in body must be of type email",
			"example.com/Widget/ns/w: spec.size: Unsupported value: supported values: \"small\", \"large\"",
		}},
		{"maximum", "spec: {maxDesired: 101}", []string{
			"example.com/Widget/ns/w: spec.maxDesired: Invalid value: spec.maxDesired in body should be less than or equal to 100",
		}},
		{"minimum", "spec: {maxDesired: -1}", []string{
			"example.com/Widget/ns/w: spec.maxDesired: Invalid value: spec.maxDesired in body should be greater than or equal to 0",
		}},
		{"maxItems", "spec: {maxDesired: 1, values: [1, 2, 3, 4, 5]}", []string{
			"example.com/Widget/ns/w: <root>: Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
			"example.com/Widget/ns/w: spec.values: Too many: must have at most 4 items",
		}},
		{"unknown field", "spec: {maxDesired: 1, colour: red}", []string{
			"example.com/Widget/ns/w: spec.colour: Invalid value: field not declared in schema",
		}},
		{"unknown field kept where the schema preserves unknown fields", "apiVersion: example.com/v2\nkind: Widget\nmetadata: {name: w, namespace: ns}\nspec: {anything: [1, 2]}", nil},
		{"metadata name", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: Not_A_Name, namespace: ns}\nspec: {maxDesired: 1}", []string{
			"example.com/Widget/ns/Not_A_Name: metadata.name: Invalid value: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := c.doc
			if !strings.HasPrefix(doc, "apiVersion:") {
				doc = widgetHead + doc
			}
			got := violations(t, s, doc)
			want := c.want
			if want == nil {
				want = []string{}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func TestCheckCoverage(t *testing.T) {
	s := widgetSchemas(t)
	doc := "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: c}\nspec: {nonsense: 1}"
	if r, err := s.CheckWith(fromYAML(t, doc)[0], Options{Request: Create}); err != nil || r.Checked || len(r.Violations) != 0 {
		t.Errorf("%q: got %+v, %v; want unchecked", doc, r, err)
	}
	// A kind that no given CRD of the group defines is refused, saying
	// that the CRDs may define the group only in part.
	for doc, want := range map[string]string{
		"apiVersion: example.com/v1\nkind: Sprocket\nmetadata: {name: w}\nspec: {nonsense: 1}": "example.com/Sprocket/_/w: kind Sprocket is not defined by the CustomResourceDefinitions given for group example.com, which define Widget; " +
			"they may define the group only in part: if it has such a kind, give its CustomResourceDefinition too",
		"apiVersion: example.com/v1\nkind: Widgte\nmetadata: {name: w}": "example.com/Widgte/_/w: kind Widgte is not defined by the CustomResourceDefinitions given for group example.com, which define Widget: did you mean Widget?; " +
			"they may define the group only in part: if it has such a kind, give its CustomResourceDefinition too",
	} {
		if _, err := s.Check(fromYAML(t, doc)[0]); err == nil || err.Error() != want {
			t.Errorf("%q: got %v, want %s", doc, err, want)
		}
	}
	// A version no schema serves is named, as the document writes it.
	for doc, want := range map[string]string{
		"apiVersion: example.com/v1beta1\nkind: Widget\nmetadata: {name: w}": "example.com/Widget/_/w: no schema for kind Widget in example.com/v1beta1",
		"apiVersion: example.com/v0\nkind: Widget\nmetadata: {name: w}":      "example.com/Widget/_/w: no schema for kind Widget in example.com/v0",
	} {
		_, err := s.CheckWith(fromYAML(t, doc)[0], Options{Request: Create})
		want += ": the schemas cover group example.com with example.com/v1 Widget, example.com/v2 Widget"
		if err == nil || err.Error() != want {
			t.Errorf("%q: got error %v, want %s", doc, err, want)
		}
	}
}

func TestCheckRefusesACRDWithARuleOverItsCostLimit(t *testing.T) {
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: costly.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Costly, plural: costly}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              words: {type: array, items: {type: string}}
            x-kubernetes-validations:
            - rule: "self.words.all(a, self.words.all(b, a == b || a != b))"
`
	s, err := Load(fromYAML(t, crd))
	if err != nil {
		t.Fatalf("Load reads only the CRD's group and kinds, and should not refuse it yet: %v", err)
	}
	_, err = s.CheckWith(fromYAML(t, "apiVersion: example.com/v1\nkind: Costly\nmetadata: {name: a}")[0], Options{Request: Create})
	var se *SchemaError
	if !errors.As(err, &se) {
		t.Fatalf("checking a Costly accepted a rule over its cost limit: %v", err)
	}
	want := "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x"
	if !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "schemas: document 0: CustomResourceDefinition costly.example.com is invalid: ") {
		t.Errorf("got %v\nwant it to contain %s", err, want)
	}
}

func TestCheckWaitsForUnknownValues(t *testing.T) {
	s := widgetSchemas(t)
	doc := fromYAML(t, widgetHead+"spec: {maxDesired: 3, minReplicas: 1, color: Red, contact: x}")[0]
	spec, _ := doc.(*value.Map).Get("spec")
	spec.(*value.Map).Set("contact", value.Unknown{})
	spec.(*value.Map).Set("minReplicas", value.Unknown{})
	r, err := s.CheckWith(doc, Options{Request: Create})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range r.Violations {
		got = append(got, v.String())
	}
	want := "example.com/Widget/ns/w: spec.color: Invalid value: spec.color in body should match '^[a-z]+$'"
	if !r.Waiting || strings.Join(got, "\n") != want {
		t.Errorf("got waiting=%v\n%s\nwant waiting and\n%s", r.Waiting, strings.Join(got, "\n"), want)
	}
}

func TestLoadWaitsForUnknownSchemas(t *testing.T) {
	docs := fromYAML(t, "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: x}")
	docs[0].(*value.Map).Set("spec", value.Unknown{})
	if _, err := Load(docs); err != ErrUnknownSchemas {
		t.Errorf("got %v, want ErrUnknownSchemas", err)
	}
}
