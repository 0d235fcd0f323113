package kustomize

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"reflect"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/celyaml/terraform-provider-celyaml/internal/datadiff"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/transform"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/validate"
)

// A spec is one set of changes to a bundle, written once and turned into
// both a kustomization.yaml (kustomize's names) and a celyaml template
// ($transform and a $remove overlay, the language guide's names).
type spec struct {
	namespace      string
	labels         map[string]string // kustomize labels (metadata only); celyaml labels
	selectorLabels map[string]string // kustomize commonLabels; celyaml selectorLabels
	annotations    map[string]string // kustomize commonAnnotations; celyaml annotations
	images         []image
	remove         *object // kustomize patches with $patch: delete; celyaml $remove: true
}

type image struct {
	Name    string `yaml:"name"`
	NewName string `yaml:"newName,omitempty"`
	NewTag  string `yaml:"newTag,omitempty"`
	Digest  string `yaml:"digest,omitempty"`
}

type object struct{ apiVersion, kind, namespace, name string }

// kustomization is spec as kustomize's kustomization.yaml, over bundle.yaml.
func (s spec) kustomization() []byte {
	k := map[string]any{"resources": []string{"bundle.yaml"}}
	if s.namespace != "" {
		k["namespace"] = s.namespace
	}
	var labels []map[string]any
	if s.labels != nil {
		labels = append(labels, map[string]any{"pairs": s.labels})
	}
	if s.selectorLabels != nil {
		// commonLabels, in the form kustomize no longer warns about
		labels = append(labels, map[string]any{"pairs": s.selectorLabels, "includeSelectors": true})
	}
	if labels != nil {
		k["labels"] = labels
	}
	if s.annotations != nil {
		k["commonAnnotations"] = s.annotations
	}
	if s.images != nil {
		k["images"] = s.images
	}
	if r := s.remove; r != nil {
		meta := map[string]string{"name": r.name}
		if r.namespace != "" {
			meta["namespace"] = r.namespace
		}
		patch, err := yaml.Marshal(map[string]any{"$patch": "delete", "apiVersion": r.apiVersion, "kind": r.kind, "metadata": meta})
		if err != nil {
			panic(err)
		}
		k["patches"] = []map[string]string{{"patch": string(patch)}}
	}
	return mustYAML(k)
}

// template is spec as a celyaml template over bundle.yaml: the bundle
// included as a stream, a $remove overlay, then one $transform.
func (s spec) template() []byte {
	var b bytes.Buffer
	b.WriteString("$include: bundle.yaml\n")
	if r := s.remove; r != nil {
		cond := fmt.Sprintf("doc.apiVersion == %q && doc.kind == %q && doc.metadata.name == %q", r.apiVersion, r.kind, r.name)
		if r.namespace != "" {
			cond += fmt.Sprintf(" && doc.metadata.namespace == %q", r.namespace)
		}
		b.WriteString("---\n")
		b.Write(mustYAML(map[string]any{"$overlay": cond, "$expects": 1, "$remove": true}))
	}
	t := map[string]any{}
	if s.namespace != "" {
		t["namespace"] = s.namespace
	}
	if s.labels != nil {
		t["labels"] = s.labels
	}
	if s.selectorLabels != nil {
		t["selectorLabels"] = s.selectorLabels
	}
	if s.annotations != nil {
		t["annotations"] = s.annotations
	}
	if s.images != nil {
		t["images"] = s.images
	}
	if len(t) > 0 {
		b.WriteString("---\n")
		b.Write(mustYAML(map[string]any{"$transform": t}))
	}
	return b.Bytes()
}

func mustYAML(v any) []byte {
	out, err := yaml.Marshal(v)
	if err != nil {
		panic(err)
	}
	return out
}

// kustomizeBuild is `kustomize build` of k over bundle, run by kustomize's
// own library on an in-memory file system.
func kustomizeBuild(bundle, k []byte) ([]byte, error) {
	fs := filesys.MakeFsInMemory()
	if err := fs.WriteFile("/app/bundle.yaml", bundle); err != nil {
		return nil, err
	}
	if err := fs.WriteFile("/app/kustomization.yaml", k); err != nil {
		return nil, err
	}
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fs, "/app")
	if err != nil {
		return nil, err
	}
	return m.AsYaml()
}

// celyamlRender is `celyaml render` of template beside bundle: the engine
// facade, as the command calls it, reading files from memory.
func celyamlRender(ctx context.Context, eng *engine.Engine, template []byte) ([]byte, error) {
	docs, err := eng.RenderDocuments(ctx, engine.Source{Name: "app/template.yaml", Text: template}, nil)
	if err != nil {
		return nil, err
	}
	vals := make([]value.Value, len(docs))
	for i, d := range docs {
		vals[i] = d.Value
	}
	return engine.EncodeYAMLStream(vals)
}

func newEngine(bundle []byte) *engine.Engine {
	opts := engine.DefaultOptions()
	opts.Loader = engine.FSLoader{FS: fstest.MapFS{"app/bundle.yaml": {Data: bundle}}}
	return engine.New(opts)
}

// objects reads a YAML stream into documents keyed by group, kind,
// namespace and name (the manifest ID's parts, "_" for an empty one).
func objects(stream []byte) (map[string]any, error) {
	out := map[string]any{}
	dec := yaml.NewDecoder(bytes.NewReader(stream))
	for {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if doc == nil {
			continue
		}
		id := datadiff.ID(doc)
		if _, dup := out[id]; dup {
			return nil, fmt.Errorf("two documents are %s", id)
		}
		out[id] = doc
	}
}

// differences lists, one line each and sorted, where the two renders
// disagree: an object only one of them gives, or a value at a path.
func differences(kust, cel map[string]any) []string {
	return datadiff.Objects("kustomize", "celyaml", kust, cel)
}

func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

// A bundle is one of testdata's release-shaped files and the changes
// that make sense on it.
type bundle struct {
	file   string
	images []image
	remove object
}

var bundles = []bundle{
	{
		file: "ingress.yaml",
		images: []image{
			// digest-pinned: a new tag drops the digest, as kustomize does
			{Name: "registry.k8s.io/ingress-nginx/controller", NewTag: "v1.13.0"},
			{Name: "registry.k8s.io/ingress-nginx/kube-webhook-certgen", NewName: "mirror.example.com/ingress-nginx/kube-webhook-certgen"},
		},
		remove: object{"batch/v1", "Job", "ingress-nginx", "ingress-nginx-admission-patch"},
	},
	{
		file: "operator.yaml",
		images: []image{
			{Name: "ghcr.io/example/widget-operator", Digest: "sha256:0000000000000000000000000000000000000000000000000000000000000001"},
			// registries with a port
			{Name: "registry.example.com:5000/brancz/kube-rbac-proxy", NewTag: "v0.19.0"},
			{Name: "registry.example.com:5000/library/busybox", NewName: "mirror.example.com:5443/library/busybox", NewTag: "1.37"},
			// tag and digest replaced together, in a CronJob
			{Name: "ghcr.io/example/widget-gc", NewTag: "v2.4.0", Digest: "sha256:00000000000000000000000000000000000000000000000000000000000000ff"},
		},
		remove: object{"example.com/v1", "Widget", "widget-system", "widget-sample"},
	},
	{
		file: "argocd.yaml",
		images: []image{
			{Name: "quay.io/argoproj/argocd", NewTag: "v3.1.1"},
			{Name: "public.ecr.aws/docker/library/redis", NewName: "mirror.example.com/library/redis"},
		},
		remove: object{"networking.k8s.io/v1", "NetworkPolicy", "", "argocd-redis-network-policy"},
	},
	{
		file:   "metricsserver.yaml",
		images: []image{{Name: "registry.k8s.io/metrics-server/metrics-server", NewTag: "v0.8.1"}},
		remove: object{"rbac.authorization.k8s.io/v1", "ClusterRole", "", "system:aggregated-metrics-reader"},
	},
	{
		file: "absent.yaml",
		images: []image{
			{Name: "registry.example.com/app", NewTag: "1.1"},
			{Name: "registry.example.com/cleanup", NewTag: "1.1"},
		},
		remove: object{"policy/v1", "PodDisruptionBudget", "absent", "all-pods"},
	},
	{
		file:   "probes.yaml",
		images: []image{{Name: "registry.example.com/app", NewTag: "2.0"}},
		remove: object{"v1", "ConfigMap", "probes", "app-settings"},
	},
	{
		file: "helmapp.yaml",
		images: []image{
			{Name: "ghcr.io/stefanprodan/podinfo", NewName: "ghcr.io/acme/podinfo", NewTag: "6.8.0"},
		},
		remove: object{"v1", "Pod", "", "web-podinfo-grpc-test-connection"},
	},
}

// scenarios are the bundle as it is, each transform alone, removal alone, and everything at once.
func scenarios(b bundle) map[string]spec {
	const ns = "edge"
	labels := map[string]string{"team": "platform"}
	selector := map[string]string{"app.kubernetes.io/part-of": "edge"}
	annotations := map[string]string{"owner": "platform-team"}
	return map[string]spec{
		"none":           {},
		"namespace":      {namespace: ns},
		"labels":         {labels: labels},
		"selectorLabels": {selectorLabels: selector},
		"annotations":    {annotations: annotations},
		"images":         {images: b.images},
		"remove":         {remove: &b.remove},
		"all": {namespace: ns, labels: labels, selectorLabels: selector, annotations: annotations,
			images: b.images, remove: &b.remove},
	}
}

// compareScenario builds scenario s (named name, reported as key) of the
// stream data with kustomize's library, renders it with celyaml, and holds
// the differences to exactly the entries of table that apply to key,
// marking them in seen. base and baseObj are data built with no change;
// the scenario "none" is base itself.
func compareScenario(t *testing.T, ctx context.Context, eng *engine.Engine, data, base []byte, baseObj map[string]any,
	name, key string, s spec, table []deliberateDiff, seen map[string]bool) {
	t.Helper()
	kout, err := base, error(nil)
	if name != "none" {
		kout, err = kustomizeBuild(data, s.kustomization())
	}
	if err != nil {
		t.Fatalf("kustomize build: %v\nkustomization.yaml:\n%s", err, s.kustomization())
	}
	cout, err := celyamlRender(ctx, eng, s.template())
	if err != nil {
		t.Fatalf("celyaml render: %v\ntemplate:\n%s", err, s.template())
	}
	kobj, err := objects(kout)
	if err != nil {
		t.Fatalf("kustomize output: %v", err)
	}
	cobj, err := objects(cout)
	if err != nil {
		t.Fatalf("celyaml output: %v", err)
	}
	if name != "none" && len(differences(baseObj, kobj)) == 0 {
		t.Fatalf("kustomize build gives the input unchanged: the scenario tests nothing")
	}
	got := differences(kobj, cobj)
	var want []string
	for _, d := range table {
		if d.applies(key) {
			seen[d.line] = true
			want = append(want, d.line)
		}
	}
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("differences from kustomize build:\n got: %s\nwant: %s\nkustomization.yaml:\n%s\ntemplate:\n%s",
			strings.Join(got, "\n      "), strings.Join(want, "\n      "), s.kustomization(), s.template())
	}
}

// TestKustomize_sameObjectsAsKustomizeBuild renders every bundle under
// every scenario with kustomize's library and with celyaml, and holds the
// differences to exactly the deliberate ones of the table below.
func TestKustomize_sameObjectsAsKustomizeBuild(t *testing.T) {
	ctx := context.Background()
	seen := map[string]bool{}
	for _, b := range bundles {
		data, err := os.ReadFile(path.Join("testdata", b.file))
		if err != nil {
			t.Fatal(err)
		}
		eng := newEngine(data)
		base, err := kustomizeBuild(data, spec{}.kustomization())
		if err != nil {
			t.Fatal(err)
		}
		baseObj, err := objects(base)
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range scenarios(b) {
			key := strings.TrimSuffix(b.file, ".yaml") + "/" + name
			t.Run(key, func(t *testing.T) {
				compareScenario(t, ctx, eng, data, base, baseObj, name, key, s, deliberate, seen)
			})
		}
	}
	for _, d := range deliberate {
		if d.why == "" {
			t.Errorf("deliberate difference %q says no why", d.line)
		}
		if !seen[d.line] {
			t.Errorf("deliberate difference %q applies to no scenario", d.line)
		}
	}
}

// A custom resource whose CustomResourceDefinition is not in the render
// (cert-manager's, installed on its own) has a scope nothing tells:
// kustomize guesses namespaced, celyaml stops with an error naming the
// kind, as the language guide's §10 says.
func TestKustomize_kindOfUnknownScopeIsAnErrorWhereKustomizeGuesses(t *testing.T) {
	data, err := os.ReadFile(path.Join("testdata", "ingress.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, []byte(`---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: ingress-nginx-admission
  namespace: ingress-nginx
spec:
  secretName: ingress-nginx-admission
  dnsNames: [ingress-nginx-controller-admission.ingress-nginx.svc]
  issuerRef: {name: selfsigned, kind: Issuer}
`)...)
	s := spec{namespace: "edge"}
	kout, err := kustomizeBuild(data, s.kustomization())
	if err != nil {
		t.Fatal(err)
	}
	kobj, err := objects(kout)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := kobj["cert-manager.io/Certificate/edge/ingress-nginx-admission"]; !ok {
		t.Errorf("kustomize build did not put the Certificate in the namespace")
	}
	_, err = celyamlRender(context.Background(), newEngine(data), s.template())
	want := "app/template.yaml:4:5: $transform.namespace: cannot tell whether kind cert-manager.io/Certificate is namespaced: " +
		"it is not a built-in kind of Kubernetes v1.37.2 and no CustomResourceDefinition among the documents or given beside them defines it; " +
		"give its CustomResourceDefinition: render it with the objects, or pass it to the command line's --schemas (a file or a directory); or leave the object where it is with keepNamespace\n" +
		"  while editing document 20 (cert-manager.io/Certificate/ingress-nginx/ingress-nginx-admission)"
	if err == nil || err.Error() != want {
		t.Errorf("celyaml render: got error %v\nwant %s", err, want)
	}
}

// The command line's -n (the engine's Namespace option) is kustomize's
// namespace: too, with the differences of the namespace scenario.
func TestKustomize_namespaceOptionIsKustomizesNamespace(t *testing.T) {
	for _, b := range bundles {
		data, err := os.ReadFile(path.Join("testdata", b.file))
		if err != nil {
			t.Fatal(err)
		}
		key := strings.TrimSuffix(b.file, ".yaml") + "/namespace"
		t.Run(key, func(t *testing.T) {
			kout, err := kustomizeBuild(data, spec{namespace: "edge"}.kustomization())
			if err != nil {
				t.Fatal(err)
			}
			opts := engine.DefaultOptions()
			opts.Loader = engine.FSLoader{FS: fstest.MapFS{"app/bundle.yaml": {Data: data}}}
			opts.Namespace = "edge"
			cout, err := celyamlRender(context.Background(), engine.New(opts), spec{}.template())
			if err != nil {
				t.Fatal(err)
			}
			kobj, err := objects(kout)
			if err != nil {
				t.Fatal(err)
			}
			cobj, err := objects(cout)
			if err != nil {
				t.Fatal(err)
			}
			got := differences(kobj, cobj)
			var want []string
			for _, d := range deliberate {
				if d.applies(key) {
					want = append(want, d.line)
				}
			}
			sort.Strings(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("differences from kustomize build:\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
			}
		})
	}
}

// metrics-server's auth-reader RoleBinding binds kube-system's
// extension-apiserver-authentication-reader Role, so it must stay in
// kube-system when the rest moves; kustomize moves it and cannot be told
// otherwise. keepNamespace (reference §10), in the $transform and as the
// engine's KeepNamespace option (the command line's --keep-namespace),
// leaves it there, and its subject follows the ServiceAccount that moved:
// the only difference from kustomize build is where the RoleBinding is.
func TestKustomize_keepNamespaceLeavesMetricsServerAuthReaderInKubeSystem(t *testing.T) {
	data, err := os.ReadFile(path.Join("testdata", "metricsserver.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	kout, err := kustomizeBuild(data, spec{namespace: "monitoring"}.kustomization())
	if err != nil {
		t.Fatal(err)
	}
	kobj, err := objects(kout)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"rbac.authorization.k8s.io/RoleBinding/kube-system/metrics-server-auth-reader: only in celyaml",
		"rbac.authorization.k8s.io/RoleBinding/monitoring/metrics-server-auth-reader: only in kustomize",
	}
	template := []byte(`$include: bundle.yaml
---
$transform:
  namespace: monitoring
  keepNamespace:
    - {kind: RoleBinding, name: metrics-server-auth-reader}
`)
	optionNS := engine.DefaultOptions()
	optionNS.Loader = engine.FSLoader{FS: fstest.MapFS{"app/bundle.yaml": {Data: data}}}
	optionNS.Namespace = "monitoring"
	optionNS.KeepNamespace = []transform.Keep{{Kind: "RoleBinding", Name: "metrics-server-auth-reader"}}
	for name, c := range map[string]struct {
		eng      *engine.Engine
		template []byte
	}{
		"transform": {newEngine(data), template},
		"option":    {engine.New(optionNS), spec{}.template()},
	} {
		t.Run(name, func(t *testing.T) {
			cout, err := celyamlRender(context.Background(), c.eng, c.template)
			if err != nil {
				t.Fatal(err)
			}
			cobj, err := objects(cout)
			if err != nil {
				t.Fatal(err)
			}
			if got := differences(kobj, cobj); !reflect.DeepEqual(got, want) {
				t.Errorf("differences from kustomize build:\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
			}
			rb := cobj["rbac.authorization.k8s.io/RoleBinding/kube-system/metrics-server-auth-reader"].(map[string]any)
			if got := js(rb["subjects"]); got != `[{"kind":"ServiceAccount","name":"metrics-server","namespace":"monitoring"}]` {
				t.Errorf("the kept RoleBinding's subjects are %s; want the ServiceAccount in monitoring, where it moved", got)
			}
		})
	}
}

// Kept by namespace, everything kube-system holds stays: the same render
// as no namespace at all, so metrics-server needs the kind and name form.
func TestKustomize_keepNamespaceByNamespaceKeepsEverythingThere(t *testing.T) {
	data, err := os.ReadFile(path.Join("testdata", "metricsserver.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	eng := newEngine(data)
	plain, err := celyamlRender(context.Background(), eng, spec{}.template())
	if err != nil {
		t.Fatal(err)
	}
	kept, err := celyamlRender(context.Background(), eng, []byte("$include: bundle.yaml\n---\n$transform: {namespace: monitoring, keepNamespace: [{namespace: kube-system}]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain, kept) {
		t.Errorf("keepNamespace: [{namespace: kube-system}] changed the render:\n%s", kept)
	}
}

// argo-cd's application controller is a StatefulSet without
// volumeClaimTemplates: with every transform, the render passes the API
// server's own validation of the built-in kinds (what --schemas runs),
// where selectorLabels used to create volumeClaimTemplates as a mapping
// and the StatefulSet was refused.
func TestKustomize_argoCDWithEveryTransformPassesValidation(t *testing.T) {
	data, err := os.ReadFile(path.Join("testdata", "argocd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var b bundle
	for _, x := range bundles {
		if x.file == "argocd.yaml" {
			b = x
		}
	}
	docs, err := newEngine(data).RenderDocuments(context.Background(), engine.Source{Name: "app/template.yaml", Text: scenarios(b)["all"].template()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]value.Value, len(docs))
	for i, d := range docs {
		vals[i] = d.Value
	}
	s, err := validate.Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := s.CheckAll(vals)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) > 0 {
		t.Errorf("the API server would refuse:\n%s", strings.Join(lines, "\n"))
	}
}
