package validate

import (
	"bytes"
	"errors"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/celyaml/terraform-provider-celyaml/internal/validate/builtin"
)

// bundle is this build's bundle of built-in kinds, committed in
// builtin/data/ (`make builtin-schemas` regenerates it).
func bundle(t *testing.T) (string, []byte) {
	t.Helper()
	name, gz := builtin.Bundle()
	if gz == nil {
		t.Fatal("this build carries no built-in schemas: internal/validate/builtin/data/ lost its committed bundle; `make builtin-schemas` writes it")
	}
	return name, gz
}

// freshBuiltins is this build's bundle, read into a set of its own, so
// that a test sees which kinds it builds.
func freshBuiltins(t *testing.T) *builtinSet {
	name, gz := bundle(t)
	return &builtinSet{name: name, gz: gz}
}

func checkLines(t *testing.T, s *Schemas, doc string) ([]string, error) {
	t.Helper()
	lines, err := s.CheckAllWith(fromYAML(t, doc), Options{Request: Create})
	if lines == nil {
		lines = []string{}
	}
	return lines, err
}

// With no schema given, a Deployment is checked against the built-in
// kinds' schemas, and refused at the same field paths, with the same
// messages, as against the saved apps/v1 and core/v1 documents.
func TestCheckBuiltinDeploymentWithNoSchemasGiven(t *testing.T) {
	none, err := LoadPlain(nil)
	if err != nil {
		t.Fatal(err)
	}
	saved := savedSchemas(t)
	for _, c := range []struct {
		name, spec string
		want       []string
	}{
		{"valid", "spec: {replicas: 2, selector: {matchLabels: {app: cart}}, template: {metadata: {labels: {app: cart}}, spec: {containers: [{name: cart, image: nginx, ports: [{containerPort: 80}]}]}}}", []string{}},
		{"wrong type", "spec: {replicas: two, selector: {}, template: {spec: {containers: [{name: c}]}}}", []string{
			`apps/Deployment/prod/cart: spec.replicas: Invalid value: spec.replicas in body must be of type integer: "string"`,
		}},
		{"unknown field", "spec: {selector: {}, template: {spec: {containers: [{name: c, imag: nginx}]}}}", []string{
			"apps/Deployment/prod/cart: spec.template.spec.containers[0].imag: Invalid value: field not declared in schema",
		}},
		{"missing container name", "spec: {selector: {}, template: {spec: {containers: [{image: nginx}]}}}", []string{
			"apps/Deployment/prod/cart: spec.template.spec.containers[0].name: Required value",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := checkLines(t, none, deploymentHead+c.spec)
			if err != nil || strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("built-in kinds: got %q, %v; want %q", got, err, c.want)
			}
			fromSaved, err := checkLines(t, saved, deploymentHead+c.spec)
			if err != nil || strings.Join(fromSaved, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("saved documents: got %q, %v; want %q", fromSaved, err, c.want)
			}
		})
	}
	// A version the built-in kinds do not serve is an error, as for a CRD.
	_, err = none.CheckWith(fromYAML(t, "apiVersion: apps/v1beta2\nkind: Deployment\nmetadata: {name: d}")[0], Options{Request: Create})
	if want := "apps/Deployment/_/d: no schema for kind Deployment in apps/v1beta2: the schemas cover group apps with apps/v1 Deployment"; err == nil || err.Error() != want {
		t.Errorf("apps/v1beta2: got %v, want %s", err, want)
	}
	// A kind no schema defines is still not checked.
	if r, err := none.CheckWith(fromYAML(t, "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: c}\nbogus: 1")[0], Options{Request: Create}); err != nil || r.Checked {
		t.Errorf("a custom resource without its CRD: got %+v, %v; want unchecked", r, err)
	}
}

// savedConfigMap is a saved core/v1 document whose ConfigMap's immutable
// is a string, where the built-in one is a boolean.
const savedConfigMap = `{"openapi": "3.0.0",
 "paths": {"/api/v1/namespaces/{namespace}/configmaps": {"post": {"x-kubernetes-group-version-kind": {"group": "", "kind": "ConfigMap", "version": "v1"}}}},
 "components": {"schemas": {"io.k8s.api.core.v1.ConfigMap": {"type": "object",
   "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}, "immutable": {"type": "string"}},
   "x-kubernetes-group-version-kind": [{"group": "", "kind": "ConfigMap", "version": "v1"}]}}}}`

// A saved document's kind replaces the built-in one of the same group,
// version and kind; the kinds it does not define keep the built-in schema.
func TestCheckSavedDocumentOverridesTheBuiltinKind(t *testing.T) {
	saved, err := DecodeJSON([]byte(savedConfigMap))
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadPlain([]any{saved})
	if err != nil {
		t.Fatal(err)
	}
	none, err := LoadPlain(nil)
	if err != nil {
		t.Fatal(err)
	}
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns}\nimmutable: \"yes\""
	if got, err := checkLines(t, s, cm); err != nil || len(got) != 0 {
		t.Errorf("with the saved document: got %q, %v; want accepted", got, err)
	}
	want := `_/ConfigMap/ns/c: immutable: Invalid value: immutable in body must be of type boolean: "string"`
	if got, err := checkLines(t, none, cm); err != nil || strings.Join(got, "\n") != want {
		t.Errorf("built-in kinds alone: got %q, %v; want %s", got, err, want)
	}
	secret := "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: ns}\nimmutable: \"yes\""
	want = `_/Secret/ns/s: immutable: Invalid value: immutable in body must be of type boolean: "string"`
	if got, err := checkLines(t, s, secret); err != nil || strings.Join(got, "\n") != want {
		t.Errorf("a Secret, which the saved document does not define: got %q, %v; want %s", got, err, want)
	}
}

// A build without the bundle (a checkout that lost it) checks what the given
// schemas cover, and says for a document of a built-in group that it
// carries no built-in schemas, and how to get them.
func TestCheckWithoutBuiltinsNamesTheBuild(t *testing.T) {
	s, err := loadPlain(nil, noBuiltins())
	if err != nil {
		t.Fatal(err)
	}
	want := "apps/Deployment/prod/cart: no schema for a kind of the built-in group apps: this build carries no built-in schemas of the Kubernetes kinds " +
		"(it was built from a checkout without the committed internal/validate/builtin/data bundle): build it from a whole checkout " +
		"(`make builtin-schemas` regenerates the bundle), or pass the cluster's saved /openapi/v3 document of this group-version"
	lines, err := s.CheckAllWith(fromYAML(t, deploymentHead+"spec: {replicas: two}"), Options{Request: Create})
	if err != nil || strings.Join(lines, "\n") != want {
		t.Errorf("a Deployment: got %q, %v; want %s", lines, err, want)
	}
	if r, err := s.CheckWith(fromYAML(t, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nbogus: 1")[0], Options{Request: Create}); err != nil || r.Checked {
		t.Errorf("a custom resource without its CRD: got %+v, %v; want unchecked", r, err)
	}
	saved, err := loadSavedOpenAPIWith(noBuiltins())
	if err != nil {
		t.Fatal(err)
	}
	lines, err = saved.CheckAllWith(fromYAML(t, deploymentHead+"spec: {replicas: two, selector: {}, template: {spec: {containers: [{name: c}]}}}"), Options{Request: Create})
	want = `apps/Deployment/prod/cart: spec.replicas: Invalid value: spec.replicas in body must be of type integer: "string"`
	if err != nil || strings.Join(lines, "\n") != want {
		t.Errorf("a Deployment with apps/v1 saved: got %q, %v; want %s", lines, err, want)
	}
}

// A document of a kind a given schema defines is checked, and named in
// its lines, without reading the built-in kinds.
func TestCheckOfAGivenKindLeavesTheBuiltinsUnread(t *testing.T) {
	b := freshBuiltins(t)
	crd := fromYAML(t, "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n"+
		"spec: {group: example.com, scope: Namespaced, names: {kind: Widget, plural: widgets}, versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: "+
		"{type: object, properties: {spec: {type: object, properties: {replicas: {type: integer}}}}}}}]}")
	p, _ := plain(crd[0])
	s, err := loadPlain([]any{p}, b)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := checkLines(t, s, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {replicas: two}")
	want := `example.com/Widget/_/w: spec.replicas: Invalid value: spec.replicas in body must be of type integer: "string"`
	if err != nil || strings.Join(lines, "\n") != want {
		t.Errorf("got %q, %v; want %s", lines, err, want)
	}
	if b.kinds != nil {
		t.Error("checking a Widget read the built-in kinds; only a kind no given schema defines needs them")
	}
}

// The built-in kinds are read when first needed, and a kind's validators
// are built once, when a document of it is first checked: one Deployment
// builds the Deployment alone.
func TestCheckBuildsOnlyTheBuiltinKindsItChecks(t *testing.T) {
	b := freshBuiltins(t)
	s, err := loadPlain(nil, b)
	if err != nil {
		t.Fatal(err)
	}
	if b.kinds != nil {
		t.Fatal("Load read the built-in kinds; it should leave them until a document needs them")
	}
	doc := fromYAML(t, benchDeployment)[0]
	for range 3 {
		if r, err := s.CheckWith(doc, Options{Request: Create}); err != nil || !r.Checked || len(r.Violations) > 0 {
			t.Fatalf("got %+v, %v", r, err)
		}
	}
	var built []string
	for _, versions := range b.kinds {
		for _, e := range versions {
			if e.ks != nil || e.err != nil {
				built = append(built, e.gvk.String())
			}
		}
	}
	if got := strings.Join(built, " "); got != "apps/v1, Kind=Deployment" {
		t.Errorf("built %s, want only apps/v1, Kind=Deployment", got)
	}
}

// A bundle that cannot be read is an error of the schemas, naming it.
func TestCheckBrokenBundleIsASchemaError(t *testing.T) {
	s, err := loadPlain(nil, &builtinSet{name: "kubernetes-1.37.json.gz", gz: []byte("this is not a gzip stream")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.CheckAllWith(fromYAML(t, benchDeployment), Options{Request: Create})
	var se *SchemaError
	want := "the built-in schemas (kubernetes-1.37.json.gz) cannot be read: gzip: invalid header; rebuild with `make builtin-schemas`"
	if !errors.As(err, &se) || err.Error() != want {
		t.Errorf("got %v, want the SchemaError %s", err, want)
	}
}

// The bundle is of the Kubernetes minor that k8s.io/api in go.mod matches
// (v0.37.2 is Kubernetes 1.37), named after it.
func TestBundleMinorMatchesGoMod(t *testing.T) {
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*k8s\.io/api v0\.(\d+)\.\d+`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("go.mod requires no k8s.io/api")
	}
	minor := string(m[1])
	name, gz := bundle(t)
	if want := builtin.FileName("1." + minor); name != want {
		t.Errorf("the bundle is %s, want %s", name, want)
	}
	version, _, err := BundleDocuments(gz)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(version, "v1."+minor+".") {
		t.Errorf("the bundle holds Kubernetes %s, want 1.%s (k8s.io/api v0.%s)", version, minor, minor)
	}
}

// builtinGroups, which a build without the bundle reads, are the groups of
// the bundle.
func TestBuiltinGroupsAreTheBundles(t *testing.T) {
	_, gz := bundle(t)
	_, docs, err := BundleDocuments(gz)
	if err != nil {
		t.Fatal(err)
	}
	inBundle := map[string]bool{}
	for _, d := range docs {
		gv, err := schema.ParseGroupVersion(d.GroupVersion)
		if err != nil {
			t.Fatal(err)
		}
		inBundle[gv.Group] = true
	}
	var missing, extra []string
	for g := range inBundle {
		if !builtinGroups[g] {
			missing = append(missing, g)
		}
	}
	for g := range builtinGroups {
		if !inBundle[g] {
			extra = append(extra, g)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 {
		t.Errorf("builtinGroups lacks %q and has %q, which the bundle does not", missing, extra)
	}
}

// The bundle is what EncodeBundle writes of its own documents, byte for
// byte: the generator's output is the same from run to run.
func TestBundleEncodesTheSameBytes(t *testing.T) {
	_, gz := bundle(t)
	version, docs, err := BundleDocuments(gz)
	if err != nil {
		t.Fatal(err)
	}
	again, err := EncodeBundle(version, docs)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, gz) {
		t.Errorf("re-encoding the bundle's %d documents gives %d bytes that differ from its %d", len(docs), len(again), len(gz))
	}
}

// A CustomResourceDefinition rendered as a document is checked against the
// built-in schema of its kind, whose JSONSchemaProps holds itself: down to
// where it repeats (openAPIV3Schema's own fields), and any object below.
func TestCheckBuiltinRecursiveSchemaStopsWhereItRepeats(t *testing.T) {
	s, err := LoadPlain(nil)
	if err != nil {
		t.Fatal(err)
	}
	const head = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n" +
		"spec: {group: example.com, scope: Namespaced, names: {kind: Widget, plural: widgets}, versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: "
	for _, c := range []struct {
		name, schema string
		want         []string
	}{
		{"valid", "{type: object, properties: {spec: {type: object, properties: {replicas: {type: integer}}}}}", []string{}},
		{"a nested schema is not checked", "{type: object, properties: {spec: {type: object, propertiez: {}}}}", []string{}},
		{"openAPIV3Schema's own fields are", "{type: object, propertiez: {}}", []string{
			"apiextensions.k8s.io/CustomResourceDefinition/_/widgets.example.com: spec.versions[0].schema.openAPIV3Schema.propertiez: Invalid value: field not declared in schema",
		}},
		{"and their types", "{type: object, required: spec}", []string{
			`apiextensions.k8s.io/CustomResourceDefinition/_/widgets.example.com: spec.versions[0].schema.openAPIV3Schema.required: Invalid value: spec.versions[0].schema.openAPIV3Schema.required in body must be of type array: "string"`,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := checkLines(t, s, head+c.schema+"}}]}")
			if err != nil || strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

// Every built-in kind's validators build: no kind of the bundle makes
// the check of its documents fail as a schema that cannot be used.
func TestEveryBuiltinKindBuilds(t *testing.T) {
	b := freshBuiltins(t)
	if err := b.index(); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, versions := range b.kinds {
		for _, e := range versions {
			n++
			if _, err := e.get(); err != nil {
				t.Errorf("%s: %v", e.gvk, err)
			}
		}
	}
	if n < 100 {
		t.Errorf("the bundle has %d kinds; Kubernetes 1.37 serves more than 100", n)
	}
}
