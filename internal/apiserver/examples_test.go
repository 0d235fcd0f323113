//go:build apiserver

package apiserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/manifest"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// An example under examples/ that renders Kubernetes objects, rendered here
// with the engine as its Terraform configuration renders it: the same
// template and the same variables (its defaults, and the values its main.tf
// passes). Each render is tied to the example's outputs.txt, which `make
// examples` checks against a real terraform apply, so the documents applied
// below are the ones a user of the example gets.
type exampleRender struct {
	template string // a file under the example's folder, or "FILE.tf#N": the Nth heredoc of that file
	vars     string // the variables, as JSON
	check    func(t *testing.T, docs []value.Value, out map[string]string)
}

type example struct {
	dir     string // under examples/
	crds    []string
	renders []exampleRender
	literal string // documents written in HCL in the example, as JSON (a list)
}

var examples = []example{
	{dir: "kitchen-sink", renders: []exampleRender{{
		template: "app.yaml",
		vars:     `{"env": "prod", "region": "us-east-1", "services": [{"name": "cart", "ha": true}, {"name": "catalog", "ha": false}]}`,
		check:    outputYAML,
	}}},
	{dir: "kubernetes", renders: []exampleRender{{
		template: "modules/app/templates/app.yaml",
		vars: `{"app": "shop", "ns": "shop", "environment": "prod", "image": "registry.acme.com/shop:2024.06.1",
			"services": [
				{"name": "cart", "port": 8080, "replicas": 3, "public": true, "config": {"CART_TTL": "30m"}},
				{"name": "catalog", "port": 8081, "replicas": 1, "public": false, "config": {"CACHE_SIZE": "512", "SEARCH_URL": "http://search.shop.svc:9200"}}]}`,
		check: outputIDs,
	}}},
	{dir: "overlays", renders: []exampleRender{{
		template: "install.yaml",
		vars: `{"target_namespace": "widgets", "shipper_image": "example.com/log-shipper:2.4.1",
			"labels": {"app.kubernetes.io/managed-by": "terraform", "app.kubernetes.io/part-of": "widgets"}}`,
		check: both(outputYAML, outputIDs),
	}}},
	{dir: "validation", crds: []string{"crds/widgets.yaml"}, renders: []exampleRender{{
		template: "widgets.yaml",
		vars: `{"ns": "prod", "image": "registry.example/widget:1.4.2", "widgets": [
			{"name": "small", "replicas": 2, "minReplicas": 1, "size": "small"},
			{"name": "big", "replicas": 10, "minReplicas": 4, "size": "large"}]}`,
		check: outputSpecs("widgets"),
	}}},
	{dir: "values-layering", renders: []exampleRender{{
		template: "app.yaml",
		vars:     "", // the example's own `values` output: the layered values
		check:    outputYAML,
	}}},
	{dir: "data-sources/celyaml_render", renders: []exampleRender{
		{
			template: "templates/app.yaml",
			vars:     `{"env": "prod", "replicas": 3, "services": [{"name": "cart", "port": 8080}, {"name": "catalog", "port": 8081}]}`,
			check:    both(outputYAML, outputIDs),
		},
		{
			template: "data-source.tf#2", // #0 is the Secret, #1 the app file
			vars:     `{"name": "cart", "settings": {"log_level": "info", "workers": 4}}`,
			check:    outputField("config_data", "data"),
		},
	}},
	{dir: "functions/manifests", renders: []exampleRender{{
		template: "templates/app.yaml",
		vars:     `{"name": "cart", "image": "registry.example.com/cart:1.4.2"}`,
		check:    outputIDs,
	}}},
	{dir: "functions/render", renders: []exampleRender{{
		template: "function.tf#1",
		vars:     `{"name": "cart", "port": 8080, "public": false}`,
		check:    outputField("service_type", "spec", "type"),
	}}},
	{dir: "functions/render_file", renders: []exampleRender{{
		template: "templates/app.yaml",
		vars:     `{"name": "cart", "env": "prod", "replicas": 3, "image": "registry.example.com/cart:1.4.2"}`,
		check:    outputKinds("kinds"),
	}}},
	{dir: "functions/validate", crds: []string{"widget-crd.yaml"},
		// The documents validate() is given, written in HCL in function.tf.
		literal: `[{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "small"}, "spec": {"replicas": 2, "minReplicas": 1}},
			{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}, "data": {"mode": "fast"}}]`,
	},
}

// notObjects are the rendered documents that are not Kubernetes objects,
// by example and manifest ID, with the reason; every other document is
// applied.
var notObjects = map[string]string{
	"kitchen-sink _/Service/_/cart-us-east-1":    "the language's kitchen-sink demo: a Service without apiVersion, its spec fields at the top",
	"kitchen-sink _/Service/_/catalog-us-east-1": "the language's kitchen-sink demo: a Service without apiVersion, its spec fields at the top",
}

// exampleNamespace is where an example's namespaced object is applied:
// a namespace of the example's own, made from the one the object names
// ("default" when it names none), so that two examples that render an
// object of the same name (a Deployment "cart" in "prod") do not meet.
func exampleNamespace(dir, ns string) string {
	if ns == "" {
		ns = "default"
	}
	return "ex-" + strings.NewReplacer("/", "-", "_", "-").Replace(dir) + "-" + ns
}

// TestExamplesRoundTripThroughServerSideApply applies every object the
// examples render with server-side apply (field manager celyaml-test),
// then applies the same documents again: the second apply must change
// nothing, not the resourceVersion, not managedFields, not the object.
func TestExamplesRoundTripThroughServerSideApply(t *testing.T) {
	c := needCluster(t)
	ctx := context.Background()
	e := engine.New(engine.DefaultOptions())
	skipped := map[string]bool{}
	applied := 0
	for _, ex := range examples {
		dir := filepath.Join("..", "..", "examples", filepath.FromSlash(ex.dir))
		out := readOutputs(t, filepath.Join(dir, "outputs.txt"))
		for _, crd := range ex.crds {
			for _, v := range renderFile(t, e, filepath.Join(dir, crd), "{}") {
				u, err := toObject(v)
				if err != nil {
					t.Fatal(err)
				}
				c.installCRD(ctx, t, u)
			}
		}
		var docs []value.Value
		for _, r := range ex.renders {
			vars := r.vars
			if vars == "" {
				vars = out["values"]
			}
			rendered := renderTemplate(t, e, dir, r.template, vars)
			r.check(t, rendered, out)
			docs = append(docs, rendered...)
		}
		if ex.literal != "" {
			docs = append(docs, jsonValues(t, ex.literal)...)
			outputIDs(t, docs, out)
		}
		objects := expandLists(docs)
		// Namespaces first: the objects in them need them.
		sort.SliceStable(objects, func(i, j int) bool {
			return kindOf(objects[i]) == "Namespace" && kindOf(objects[j]) != "Namespace"
		})
		for _, v := range objects {
			id := docID(t, v)
			if reason, ok := notObjects[ex.dir+" "+id]; ok {
				skipped[ex.dir+" "+id] = true
				t.Logf("%s: %s is not applied: %s", ex.dir, id, reason)
				continue
			}
			u, err := toObject(v)
			if err != nil {
				t.Fatalf("%s: %s: %v", ex.dir, id, err)
			}
			if !clusterScoped(ctx, t, c, u) {
				ns := exampleNamespace(ex.dir, u.GetNamespace())
				c.ensureNamespace(ctx, t, ns)
				u.SetNamespace(ns)
			}
			if roundTrip(ctx, t, c, ex.dir, id, u) {
				applied++
			}
		}
	}
	for k := range notObjects {
		if !skipped[k] {
			t.Errorf("notObjects lists %s, which no example renders any more", k)
		}
	}
	t.Logf("%d objects applied twice", applied)
}

// clusterScoped reports whether an object's kind is cluster-scoped.
func clusterScoped(ctx context.Context, t *testing.T, c *cluster, u *unstructured.Unstructured) bool {
	t.Helper()
	r, err := c.resource(ctx, u.GroupVersionKind())
	if err != nil {
		t.Fatalf("%s: %v", u.GroupVersionKind(), err)
	}
	return !r.Namespaced
}

// roundTrip applies u twice and reports what the second apply changed.
func roundTrip(ctx context.Context, t *testing.T, c *cluster, dir, id string, u *unstructured.Unstructured) bool {
	t.Helper()
	ri, err := c.client(ctx, u, "")
	if err != nil {
		t.Errorf("%s: %s: %v", dir, id, err)
		return false
	}
	opts := applyOptions()
	first, err := ri.Apply(ctx, u.GetName(), u.DeepCopy(), opts)
	if err != nil {
		t.Errorf("%s: %s: the server refused the apply: %v", dir, id, err)
		return false
	}
	second, err := ri.Apply(ctx, u.GetName(), u.DeepCopy(), opts)
	if err != nil {
		t.Errorf("%s: %s: the server refused the second apply: %v", dir, id, err)
		return false
	}
	if a, b := first.GetResourceVersion(), second.GetResourceVersion(); a != b {
		t.Errorf("%s: %s: the second apply wrote the object again (resourceVersion %s, then %s)", dir, id, a, b)
	}
	if !reflect.DeepEqual(first.GetManagedFields(), second.GetManagedFields()) {
		t.Errorf("%s: %s: the second apply changed managedFields", dir, id)
	}
	if !reflect.DeepEqual(first.Object, second.Object) {
		a, _ := json.Marshal(first.Object)
		b, _ := json.Marshal(second.Object)
		t.Errorf("%s: %s: the second apply changed the object:\n  first:  %s\n  second: %s", dir, id, a, b)
	}
	return true
}

var heredocRE = regexp.MustCompile(`^(.*)#([0-9]+)$`)

// renderTemplate renders one of an example's templates with vars (JSON).
func renderTemplate(t *testing.T, e *engine.Engine, dir, template, vars string) []value.Value {
	t.Helper()
	if m := heredocRE.FindStringSubmatch(template); m != nil {
		text := heredoc(t, filepath.Join(dir, m[1]), m[2])
		docs, err := e.Render(context.Background(), engine.Source{Text: []byte(text), BaseDir: dir}, varsOf(t, vars))
		if err != nil {
			t.Fatalf("%s: render %s: %v", dir, template, err)
		}
		return docs
	}
	return renderFile(t, e, filepath.Join(dir, template), vars)
}

func renderFile(t *testing.T, e *engine.Engine, path, vars string) []value.Value {
	t.Helper()
	docs, err := e.RenderFile(context.Background(), path, varsOf(t, vars))
	if err != nil {
		t.Fatalf("render %s: %v", path, err)
	}
	return docs
}

func varsOf(t *testing.T, vars string) map[string]value.Value {
	t.Helper()
	var m map[string]any
	if err := utiljson.Unmarshal([]byte(vars), &m); err != nil {
		t.Fatalf("variables %s: %v", vars, err)
	}
	out := make(map[string]value.Value, len(m))
	for k, v := range m {
		out[k] = toValue(v)
	}
	return out
}

func jsonValues(t *testing.T, text string) []value.Value {
	t.Helper()
	var l []any
	if err := utiljson.Unmarshal([]byte(text), &l); err != nil {
		t.Fatal(err)
	}
	out := make([]value.Value, len(l))
	for i, v := range l {
		out[i] = toValue(v)
	}
	return out
}

// heredoc returns the nth (from 1) `<<-EOT` heredoc of a .tf file as
// Terraform reads it: the common indentation removed and `$${` written
// `${`.
func heredoc(t *testing.T, path, n string) string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var docs [][]string
	var cur []string
	in := false
	for _, line := range strings.Split(string(src), "\n") {
		switch {
		case !in && strings.HasSuffix(strings.TrimSpace(line), "<<-EOT"):
			in, cur = true, nil
		case in && strings.TrimSpace(line) == "EOT":
			in = false
			docs = append(docs, cur)
		case in:
			cur = append(cur, line)
		}
	}
	var i int
	for _, c := range n {
		i = i*10 + int(c-'0')
	}
	if i < 1 || i > len(docs) {
		t.Fatalf("%s has no heredoc %s", path, n)
	}
	lines := docs[i-1]
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if w := len(l) - len(strings.TrimLeft(l, " ")); indent < 0 || w < indent {
			indent = w
		}
	}
	for j, l := range lines {
		if len(l) >= indent {
			lines[j] = l[indent:]
		}
	}
	return strings.ReplaceAll(strings.Join(lines, "\n")+"\n", "$${", "${")
}

// expandLists replaces a v1 List by its items, as kubectl apply does.
func expandLists(docs []value.Value) []value.Value {
	var out []value.Value
	for _, d := range docs {
		m, ok := d.(*value.Map)
		if ok && kindOf(d) == "List" {
			if items, ok := m.Get("items"); ok {
				if l, ok := items.([]value.Value); ok {
					out = append(out, l...)
					continue
				}
			}
		}
		out = append(out, d)
	}
	return out
}

func kindOf(v value.Value) string {
	m, ok := v.(*value.Map)
	if !ok {
		return ""
	}
	k, _ := m.Get("kind")
	s, _ := k.(string)
	return s
}

func docID(t *testing.T, v value.Value) string {
	t.Helper()
	id, skip, unknown, err := manifest.ID(v)
	if err != nil || skip || unknown {
		t.Fatalf("a rendered document has no manifest ID (skip %v, unknown %v, %v)", skip, unknown, err)
	}
	return id
}

// readOutputs reads an example's outputs.txt: "== NAME" lines, each
// followed by the value (raw for a string, JSON otherwise).
func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	name := ""
	var val []string
	flush := func() {
		if name != "" {
			out[name] = strings.TrimRight(strings.Join(val, "\n"), "\n")
		}
	}
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "== ") {
			flush()
			name, val = strings.TrimPrefix(line, "== "), nil
			continue
		}
		val = append(val, line)
	}
	flush()
	return out
}

func both(checks ...func(*testing.T, []value.Value, map[string]string)) func(*testing.T, []value.Value, map[string]string) {
	return func(t *testing.T, docs []value.Value, out map[string]string) {
		t.Helper()
		for _, c := range checks {
			c(t, docs, out)
		}
	}
}

// outputYAML: the render is, byte for byte, the example's yaml output.
func outputYAML(t *testing.T, docs []value.Value, out map[string]string) {
	t.Helper()
	got, err := engine.EncodeYAMLStream(docs)
	if err != nil {
		t.Fatal(err)
	}
	if want, ok := out["yaml"]; !ok || strings.TrimRight(string(got), "\n") != want {
		t.Fatalf("the render differs from the example's output yaml:\n--- render\n%s\n--- outputs.txt\n%s", got, want)
	}
}

// outputIDs: the render's manifest IDs are the example's manifest_ids
// output.
func outputIDs(t *testing.T, docs []value.Value, out map[string]string) {
	t.Helper()
	var want []string
	if err := json.Unmarshal([]byte(out["manifest_ids"]), &want); err != nil {
		t.Fatalf("output manifest_ids: %v", err)
	}
	var got []string
	for _, d := range docs {
		got = append(got, docID(t, d))
	}
	sort.Strings(got)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the render's manifest IDs %v are not the example's output manifest_ids %v", got, want)
	}
}

// outputSpecs: the example's output maps each manifest ID to its spec.
func outputSpecs(name string) func(*testing.T, []value.Value, map[string]string) {
	return func(t *testing.T, docs []value.Value, out map[string]string) {
		t.Helper()
		var want map[string]any
		if err := json.Unmarshal([]byte(out[name]), &want); err != nil {
			t.Fatalf("output %s: %v", name, err)
		}
		got := map[string]any{}
		for _, d := range docs {
			u, err := toObject(d)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(u.Object["spec"])
			var spec any
			_ = json.Unmarshal(b, &spec)
			got[docID(t, d)] = spec
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("the render's specs %v are not the example's output %s %v", got, name, want)
		}
	}
}

// outputField: the example's output is a field of the render's one document.
func outputField(name string, path ...string) func(*testing.T, []value.Value, map[string]string) {
	return func(t *testing.T, docs []value.Value, out map[string]string) {
		t.Helper()
		if len(docs) != 1 {
			t.Fatalf("output %s: want one document, the render gave %d", name, len(docs))
		}
		u, err := toObject(docs[0])
		if err != nil {
			t.Fatal(err)
		}
		v, found, _ := unstructured.NestedFieldNoCopy(u.Object, path...)
		if !found {
			t.Fatalf("output %s: the render has no %s", name, strings.Join(path, "."))
		}
		got := ""
		if s, ok := v.(string); ok {
			got = s
		} else {
			b, _ := json.Marshal(v)
			got = string(b)
		}
		if got != out[name] {
			t.Fatalf("output %s: the render gives %s, outputs.txt %s", name, got, out[name])
		}
	}
}

// outputKinds: the example's output lists the kinds of the render.
func outputKinds(name string) func(*testing.T, []value.Value, map[string]string) {
	return func(t *testing.T, docs []value.Value, out map[string]string) {
		t.Helper()
		var kinds []string
		for _, d := range docs {
			kinds = append(kinds, kindOf(d))
		}
		b, _ := json.Marshal(kinds)
		if string(b) != out[name] {
			t.Fatalf("output %s: the render gives %s, outputs.txt %s", name, b, out[name])
		}
	}
}
