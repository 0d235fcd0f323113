package validate

import (
	"strings"
	"testing"
)

// A violation names what the document writes as its structure, whether
// or not a schema declares it: every key of the field path and the whole
// manifest ID, as the API server names them when it refuses the object.
// A value it never shows, whichever request is checked (the language
// reference, §6).
func TestCheckNamesKeysAndIDsButNeverAValue(t *testing.T) {
	s := widgetSchemas(t)
	// ssa is the want of a server-side apply, when it differs: the field
	// manager refuses the shape first.
	cases := []struct{ name, doc, want, ssa string }{
		{"an undeclared key", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}\nspec: {maxDesired: 1, token: HUNTER2VAL}",
			"example.com/Widget/ns/w: spec.token: Invalid value: field not declared in schema", ""},
		{"a key under a declared map", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {maxDesired: 1, components: {alice: {priority: HUNTER2VAL}}}",
			"example.com/Widget/_/w: <root>: Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation\n" +
				"example.com/Widget/_/w: spec.components.alice.priority: Invalid value: spec.components.alice.priority in body must be of type integer: \"string\"",
			"example.com/Widget/_/w: spec.components.alice.priority: Invalid value: expected numeric (int or float), got string"},
		{"a name and a namespace", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: Alice_Smith, namespace: Alice_Smith}\nspec: {maxDesired: 1, prefix: HUNTER2VAL}",
			"example.com/Widget/Alice_Smith/Alice_Smith: metadata.name: Invalid value: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n" +
				"example.com/Widget/Alice_Smith/Alice_Smith: metadata.namespace: Invalid value: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\n" +
				"example.com/Widget/Alice_Smith/Alice_Smith: spec.prefix: Invalid value: failed rule: self.startsWith('kube')", ""},
		{"a kind", "apiVersion: example.com/v1\nkind: Teapot\nmetadata: {name: w}\nspec: {token: HUNTER2VAL}",
			"example.com/Teapot/_/w: kind Teapot is not defined by the CustomResourceDefinitions given for group example.com, which define Widget; they may define the group only in part: if it has such a kind, give its CustomResourceDefinition too", ""},
		{"a version", "apiVersion: example.com/v9\nkind: Widget\nmetadata: {name: w}\nspec: {token: HUNTER2VAL}",
			"example.com/Widget/_/w: no schema for kind Widget in example.com/v9: the schemas cover group example.com with example.com/v1 Widget, example.com/v2 Widget", ""},
	}
	for _, c := range cases {
		for _, o := range []Options{{}, {Request: Create}} {
			t.Run(c.name+"/"+o.Request.String(), func(t *testing.T) {
				lines, err := s.CheckAllWith(fromYAML(t, c.doc), o)
				if err != nil {
					lines = append(lines, err.Error())
				}
				got := strings.Join(lines, "\n")
				want := c.want
				if o.Request == ServerSideApply && c.ssa != "" {
					want = c.ssa
				}
				if got != want {
					t.Errorf("got\n%s\nwant\n%s", got, want)
				}
				if strings.Contains(got, "HUNTER2VAL") {
					t.Errorf("a value is shown")
				}
			})
		}
	}
}

// A rule's messageExpression is the CRD author's text, as a $msg is the
// template author's: what it reads from the document, it shows, on
// purpose (the language reference, §6). A rule with a message, or none,
// shows no value.
func TestCheck_messageExpressionShowsWhatItReads(t *testing.T) {
	s, err := Load(fromYAML(t, `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: locks.example.com}
spec:
  group: example.com
  scope: Cluster
  names: {kind: Lock, plural: locks}
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
              code: {type: string}
            x-kubernetes-validations:
            - rule: "self.code.size() < 4"
              messageExpression: "'the code ' + self.code + ' is too long'"
            - rule: "self.code.startsWith('x')"
            - rule: "self.code.endsWith('y')"
              message: the code must end with y
`))
	if err != nil {
		t.Fatal(err)
	}
	lines, err := s.CheckAllWith(fromYAML(t, "apiVersion: example.com/v1\nkind: Lock\nmetadata: {name: l}\nspec: {code: HUNTER2VAR}"), Options{Request: Create})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(lines, "\n")
	want := "example.com/Lock/_/l: spec: Invalid value: failed rule: self.code.startsWith('x')\n" +
		"example.com/Lock/_/l: spec: Invalid value: the code HUNTER2VAR is too long\n" +
		"example.com/Lock/_/l: spec: Invalid value: the code must end with y"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
