package validate

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// routeSchemas loads testdata/routes.yaml: an HTTPRoute-like and a
// Gateway-like CRD whose rules read defaults.
func routeSchemas(t *testing.T) *Schemas {
	t.Helper()
	src, err := os.ReadFile("testdata/routes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Load(fromYAML(t, string(src)))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return s
}

const (
	routeHead   = "apiVersion: routes.example.com/v1\nkind: HTTPRoute\nmetadata: {name: r, namespace: ns}\n"
	gatewayHead = "apiVersion: routes.example.com/v1\nkind: Gateway\nmetadata: {name: g, namespace: ns}\n"
)

// The API server prunes, drops the nulls its schema does not allow, fills
// in defaults (nested ones, in list items and map values), and only then
// validates and runs the rules, on the defaulted object.
func TestCheckDefaultsBeforeRules(t *testing.T) {
	s := routeSchemas(t)
	cases := []struct {
		name string
		doc  string
		want []string
	}{
		{"backendRef without group and kind reads their defaults",
			routeHead + "spec: {rules: [{backendRefs: [{name: web, port: 80}]}]}", nil},
		{"backendRef to a Service without port gives only the real error",
			routeHead + "spec: {rules: [{backendRefs: [{name: web}]}]}", []string{
				"routes.example.com/HTTPRoute/ns/r: spec.rules[0].backendRefs[0]: Invalid value: Must have port for Service reference",
			}},
		{"backendRef of another kind needs no port",
			routeHead + "spec: {rules: [{backendRefs: [{name: web, kind: Bucket, group: storage.example.com}]}]}", nil},
		{"every item of every list is defaulted",
			routeHead + "spec: {rules: [{backendRefs: [{name: a, port: 1}, {name: b}]}, {backendRefs: [{name: c}]}]}", []string{
				"routes.example.com/HTTPRoute/ns/r: spec.rules[0].backendRefs[1]: Invalid value: Must have port for Service reference",
				"routes.example.com/HTTPRoute/ns/r: spec.rules[1].backendRefs[0]: Invalid value: Must have port for Service reference",
			}},
		{"a default inside a defaulted object is read by a rule",
			routeHead + "spec: {rules: [{matches: [{path: {value: relative}}]}]}", []string{
				"routes.example.com/HTTPRoute/ns/r: spec.rules[0].matches[0].path: Invalid value: value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']",
			}},
		{"a whole defaulted list passes its rules",
			routeHead + "spec: {rules: [{}]}", nil},
		{"a default in a map value is read by a rule",
			routeHead + "spec: {labels: {team: {}}}", nil},
		{"a map value's rule still fails on a given value",
			routeHead + "spec: {labels: {team: {weight: 0}}}", []string{
				"routes.example.com/HTTPRoute/ns/r: spec.labels[team]: Invalid value: a label's weight must be positive",
			}},
		{"a null where the schema is nullable is kept",
			routeHead + "spec: {rules: [{timeouts: null, backendRefs: [{name: web, port: 80}]}]}", nil},
		{"a null the schema does not allow and gives no default is dropped",
			routeHead + "spec: {hostnames: null, rules: [{backendRefs: [{name: web, port: 80, group: null}]}]}", nil},
		{"a null with a default becomes the default",
			routeHead + "spec: {rules: [{matches: null, backendRefs: [{name: web, port: 80, weight: null}]}]}", nil},
		{"a structural error still blocks the rules",
			routeHead + "spec: {rules: [{backendRefs: [{port: 80}]}]}", []string{
				"routes.example.com/HTTPRoute/ns/r: <root>: Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
				"routes.example.com/HTTPRoute/ns/r: spec.rules[0].backendRefs[0].name: Required value",
			}},
		{"HTTPS listener without tls.mode reads the default Terminate",
			gatewayHead + "spec: {listeners: [{name: https, port: 443, protocol: HTTPS, tls: {certificateRefs: [{name: cert}]}}]}", nil},
		{"the default mode's rule fails without certificates",
			gatewayHead + "spec: {listeners: [{name: https, port: 443, protocol: HTTPS, tls: {certificateRefs: []}}]}", []string{
				"routes.example.com/Gateway/ns/g: spec.listeners[0].tls: Invalid value: certificateRefs must be specified when TLSModeType is Terminate",
			}},
		{"Passthrough needs no certificates",
			gatewayHead + "spec: {listeners: [{name: tls, port: 443, protocol: TLS, tls: {mode: Passthrough, certificateRefs: []}}]}", nil},
		{"an unknown metadata field is refused, alone, as strict field validation refuses it",
			"apiVersion: routes.example.com/v1\nkind: HTTPRoute\nmetadata: {name: r, namespace: ns, lables: {a: b}}\nspec: {rules: [{backendRefs: [{name: web}]}]}", []string{
				"routes.example.com/HTTPRoute/ns/r: metadata.lables: Invalid value: field not declared in schema",
			}},
		{"status is reset at a create where the kind has a status subresource",
			gatewayHead + "spec: {listeners: [{name: http, port: 80, protocol: HTTP}]}\nstatus: {addresses: [a, b]}", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := violations(t, s, c.doc)
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

// validate returns the documents as given: the defaults are filled in on a
// copy.
func TestCheckLeavesTheDocumentAsGiven(t *testing.T) {
	s := routeSchemas(t)
	doc := fromYAML(t, routeHead+"spec: {hostnames: null, rules: [{backendRefs: [{name: web, port: 80}]}]}")[0]
	before, _ := plain(doc)
	if _, err := s.CheckWith(doc, Options{Request: Create}); err != nil {
		t.Fatal(err)
	}
	after, _ := plain(doc)
	if !reflect.DeepEqual(before, after) {
		t.Errorf("Check changed the document:\n%v\nwas\n%v", after, before)
	}
	spec, _ := doc.(*value.Map).Get("spec")
	if h, ok := spec.(*value.Map).Get("hostnames"); !ok || h != nil {
		t.Errorf("hostnames: got %v, %v; want the null kept", h, ok)
	}
}

// A create names a document from its generateName before it checks the
// metadata, so a document with generateName and no name passes.
func TestCheckGenerateNameGivesTheName(t *testing.T) {
	s := widgetSchemas(t)
	r, err := s.CheckWith(fromYAML(t, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {generateName: w-}\nspec: {maxDesired: 1}")[0], Options{Request: Create})
	if err != nil || !r.Checked || len(r.Violations) != 0 {
		t.Errorf("generateName: got %+v, %v; want checked and passing", r, err)
	}
	r, err = s.CheckWith(fromYAML(t, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {}\nspec: {maxDesired: 1}")[0], Options{Request: Create})
	if err != nil || len(r.Violations) != 2 || r.Violations[1].String() != "example.com/Widget/_/_: metadata.name: Required value: name or generateName is required" {
		t.Errorf("no name: got %+v, %v", r, err)
	}
}
