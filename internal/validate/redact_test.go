package validate

import (
	"strings"
	"testing"
)

// What a violation shows of a document is what the schemas write: a key
// the schema does not declare, a name, a namespace, and a kind or version
// no schema defines may come from a variable, and are hidden in place
// (the language reference, §6).
func TestCheck_hidesWhatOnlyTheDocumentGives(t *testing.T) {
	s := widgetSchemas(t)
	cases := []struct{ name, doc, want string }{
		{"an undeclared key", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}\nspec: {maxDesired: 1, HUNTER2VAR: 1}",
			"example.com/Widget/…/…: spec[…]: Invalid value: field not declared in schema"},
		{"a key under a declared map", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {maxDesired: 1, components: {HUNTER2VAR: {priority: x}}}",
			"example.com/Widget/_/…: <root>: Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation\n" +
				"example.com/Widget/_/…: spec.components[…].priority: Invalid value: spec.components[…].priority in body must be of type integer: \"string\""},
		{"a name and a namespace", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: HUNTER2VAR, namespace: HUNTER2VAR}\nspec: {maxDesired: 1}",
			"example.com/Widget/…/…: metadata.name: Invalid value: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n" +
				"example.com/Widget/…/…: metadata.namespace: Invalid value: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"},
		// Coverage is per group and kind: a kind no schema defines is not checked.
		{"a kind", "apiVersion: example.com/v1\nkind: HUNTER2VAR\nmetadata: {name: w}",
			"…/…/_/…: kind … is not defined by the CustomResourceDefinitions given for group example.com, which define Widget; they may define the group only in part: if it has such a kind, give its CustomResourceDefinition too"},
		{"a version", "apiVersion: example.com/HUNTER2VAR\nkind: Widget\nmetadata: {name: w}",
			"example.com/Widget/_/…: no schema for kind Widget in example.com/…: the schemas cover group example.com with example.com/v1 Widget, example.com/v2 Widget"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lines, err := createHidden(s).CheckAll(fromYAML(t, c.doc))
			if err != nil {
				lines = append(lines, err.Error())
			}
			got := strings.Join(lines, "\n")
			if got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
			if strings.Contains(got, "HUNTER2VAR") {
				t.Errorf("the secret is shown")
			}
		})
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
	lines, err := createHidden(s).CheckAll(fromYAML(t, "apiVersion: example.com/v1\nkind: Lock\nmetadata: {name: l}\nspec: {code: HUNTER2VAR}"))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(lines, "\n")
	want := "example.com/Lock/_/…: spec: Invalid value: failed rule: self.code.startsWith('x')\n" +
		"example.com/Lock/_/…: spec: Invalid value: the code HUNTER2VAR is too long\n" +
		"example.com/Lock/_/…: spec: Invalid value: the code must end with y"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
