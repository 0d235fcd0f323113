package validate

import (
	"reflect"
	"strings"
	"sync"
	"testing"

	"k8s.io/client-go/openapi/openapitest"
)

// savedOpenAPI loads the apps/v1 and core/v1 documents as a cluster serves
// them under /openapi/v3 (client-go's copies, made for its tests), as the
// validating guide says to save them.
var savedOpenAPI = sync.OnceValues(func() (*Schemas, error) { return loadSavedOpenAPIWith(builtins()) })

func loadSavedOpenAPI() (*Schemas, error) { return loadSavedOpenAPIWith(builtins()) }

// loadSavedOpenAPIWith loads them with the given built-in kinds below them.
func loadSavedOpenAPIWith(b *builtinSet) (*Schemas, error) {
	paths, err := openapitest.NewEmbeddedFileClient().Paths()
	if err != nil {
		return nil, err
	}
	var docs []any
	for _, p := range []string{"apis/apps/v1", "api/v1"} {
		raw, err := paths[p].Schema("application/json")
		if err != nil {
			return nil, err
		}
		d, err := DecodeJSON(raw)
		if err != nil {
			return nil, err
		}
		docs = append(docs, d)
	}
	return loadPlain(docs, b)
}

func savedSchemas(t *testing.T) *Schemas {
	t.Helper()
	s, err := savedOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Coverage is per group and kind, from the kinds a document's paths serve
// in its own group-version: the shared definitions (DeleteOptions names
// every group) and subresources of another group (a Deployment's scale, a
// Pod's eviction) cover nothing, neither in a saved document nor in the
// built-in kinds' (which cover the Role).
func TestCheckSavedOpenAPICoversOnlyItsOwnKinds(t *testing.T) {
	s := savedSchemas(t)
	withoutBuiltins, err := loadSavedOpenAPIWith(noBuiltins())
	if err != nil {
		t.Fatal(err)
	}
	role := fromYAML(t, "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: ns}\nrules: [{verbs: [get], bogus: 1}]")[0]
	if _, err := withoutBuiltins.CheckWith(role, Options{Request: Create}); err == nil || !strings.Contains(err.Error(), "no schema for a kind of the built-in group rbac.authorization.k8s.io") {
		t.Errorf("a Role, with apps/v1 and core/v1 saved and no built-in kinds: got %v, want the error that the build carries no built-in schemas", err)
	}
	// A kind only the shared definitions name is not a kind of the
	// document: in a group it does not serve it is not checked; in a
	// group-version it serves (or the built-in kinds do), the API server
	// serves no such kind, and it is refused.
	if r, err := s.CheckWith(fromYAML(t, "apiVersion: admission.k8s.io/v1\nkind: DeleteOptions\nbogus: 1")[0], Options{Request: Create}); err != nil || r.Checked || len(r.Violations) > 0 {
		t.Errorf("admission.k8s.io DeleteOptions: got %+v, %v; want it unchecked", r, err)
	}
	for doc, want := range map[string]string{
		"apiVersion: autoscaling/v1\nkind: Scale\nmetadata: {name: s}\nbogus: 1": "autoscaling/Scale/_/s: kind Scale does not exist in autoscaling/v1, whose kinds are HorizontalPodAutoscaler",
		"apiVersion: policy/v1\nkind: Eviction\nmetadata: {name: e}\nbogus: 1":   "policy/Eviction/_/e: kind Eviction does not exist in policy/v1, whose kinds are PodDisruptionBudget",
		"apiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: d}\nbogus: 1":   "apps/Deploymnet/_/d: kind Deploymnet does not exist in apps/v1, whose kinds are ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet: did you mean Deployment?",
	} {
		_, err := s.Check(fromYAML(t, doc)[0])
		if err == nil || err.Error() != want {
			t.Errorf("%q: got %v, want %s", doc, err, want)
		}
	}
	for _, doc := range []string{
		"apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: ns}\nrules: [{verbs: [get]}]\nbogus: 1",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: ns}\nbogus: 1",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns}\nbogus: 1",
	} {
		r, err := s.CheckWith(fromYAML(t, doc)[0], Options{Request: Create})
		if err != nil || !r.Checked || len(r.Violations) != 1 || r.Violations[0].Path != "bogus" || r.Violations[0].Message != "Invalid value: field not declared in schema" {
			t.Errorf("%q: got %+v, %v; want checked, with the unknown field refused", doc, r, err)
		}
	}
	_, err = s.CheckWith(fromYAML(t, "apiVersion: apps/v1beta2\nkind: Deployment\nmetadata: {name: d}")[0], Options{Request: Create})
	if want := "apps/Deployment/_/d: no schema for kind Deployment in apps/v1beta2: the schemas cover group apps with apps/v1 Deployment"; err == nil || err.Error() != want {
		t.Errorf("version mismatch: got %v, want %s", err, want)
	}
}

// Built-in kinds are decoded and defaulted in Go, which reads a null as
// absent and never fills in the OpenAPI document's zero-value defaults.
func TestCheckSavedOpenAPIBuiltInKinds(t *testing.T) {
	s := savedSchemas(t)
	cases := []struct {
		name string
		doc  string
		want []string
	}{
		{"ConfigMap with data null", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns}\ndata: null", nil},
		{"a zero-value default never fills a required field",
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: ns}\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{image: nginx}]}}}", []string{
				"apps/Deployment/ns/d: spec.template.spec.containers[0].name: Required value",
			}},
		{"a valid Deployment with a null field",
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: ns, labels: null}\nspec: {replicas: null, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: nginx, ports: [{containerPort: 80}]}]}}}", nil},
		{"a cluster-scoped kind's namespace is cleared, as the API server clears it",
			"apiVersion: v1\nkind: Namespace\nmetadata: {name: prod, namespace: other}", nil},
		{"a type", "apiVersion: v1\nkind: Service\nmetadata: {name: s, namespace: ns}\nspec: {ports: [{port: eighty}]}", []string{
			`_/Service/ns/s: spec.ports[0].port: Invalid value: spec.ports[0].port in body must be of type integer: "string"`,
		}},
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

// Load only indexes kinds: a kind's validators are built when a document
// of it is first checked, once, and the kinds no document needs are never
// built.
func TestCheckBuildsOnlyTheKindsItChecksOnce(t *testing.T) {
	s, err := loadSavedOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	builds := map[string]int{}
	for _, versions := range s.kinds {
		for _, e := range versions {
			build, name := e.build, e.gvk.String()
			e.build = func() (*kindSchema, error) {
				builds[name]++
				return build()
			}
		}
	}
	doc := fromYAML(t, benchDeployment)[0]
	for range 100 {
		if r, err := s.CheckWith(doc, Options{Request: Create}); err != nil || !r.Checked || len(r.Violations) > 0 {
			t.Fatalf("got %+v, %v", r, err)
		}
	}
	if want := map[string]int{"apps/v1, Kind=Deployment": 1}; !reflect.DeepEqual(builds, want) {
		t.Errorf("built %v, want %v", builds, want)
	}
}
