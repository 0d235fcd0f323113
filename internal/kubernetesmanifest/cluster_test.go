//go:build kubernetesmanifest

package kubernetesmanifest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
)

// cluster is the API server scripts/kube-apiserver.sh started, named by
// KUBECONFIG, read back with client-go.
type cluster struct {
	dyn    dynamic.Interface
	mapper *restmapper.DeferredDiscoveryRESTMapper
}

// needCluster returns the server, skips the test when there is none, or
// fails it when CI=true: in CI the oracle must run, never be skipped.
func needCluster(t *testing.T) *cluster {
	t.Helper()
	if os.Getenv("CELYAML_APISERVER") == "" || os.Getenv("KUBECONFIG") == "" {
		msg := "needs a real kube-apiserver: run `scripts/kube-apiserver.sh make test-kubernetes-manifest` (it sets CELYAML_APISERVER=1 and KUBECONFIG)"
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but " + msg)
		}
		t.Skip(msg)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG"))
	if err != nil {
		t.Fatal(err)
	}
	// The live checks read a hundred objects at once; client-go's default
	// of 5 requests a second would take most of the step.
	cfg.QPS, cfg.Burst = 200, 400
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &cluster{dyn: dyn, mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))}
}

// resource is the client of the objects of apiVersion and kind in ns.
func (c *cluster) resource(apiVersion, kind, ns string) (dynamic.ResourceInterface, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	m, err := c.mapper.RESTMapping(gv.WithKind(kind).GroupKind(), gv.Version)
	if err != nil {
		c.mapper.Reset()
		if m, err = c.mapper.RESTMapping(gv.WithKind(kind).GroupKind(), gv.Version); err != nil {
			return nil, err
		}
	}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		return c.dyn.Resource(m.Resource).Namespace(ns), nil
	}
	return c.dyn.Resource(m.Resource), nil
}

// create creates the object of a YAML text, or leaves the one there.
func (c *cluster) create(ctx context.Context, t *testing.T, text string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	if err := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(text), 4096).Decode(&u.Object); err != nil {
		t.Fatal(err)
	}
	ri, err := c.resource(u.GetAPIVersion(), u.GetKind(), u.GetNamespace())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ri.Create(ctx, u, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatalf("creating %s %s: %v", u.GetKind(), u.GetName(), err)
	}
	return u
}

// namespace creates the namespace name.
func (c *cluster) namespace(ctx context.Context, t *testing.T, name string) {
	t.Helper()
	c.create(ctx, t, fmt.Sprintf("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %s\n", name))
}

// installCRD creates a CustomResourceDefinition and waits until the server
// serves its kind.
func (c *cluster) installCRD(ctx context.Context, t *testing.T, text string) {
	t.Helper()
	crd := c.create(ctx, t, text)
	ri, err := c.resource(crd.GetAPIVersion(), crd.GetKind(), "")
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, err := ri.Get(ctx, crd.GetName(), metav1.GetOptions{})
		if err == nil && established(got) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("CustomResourceDefinition %s not established after 30s (%v)", crd.GetName(), err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	c.mapper.Reset()
}

func established(crd *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// live reads the object a manifest names, as JSON values (numbers are
// float64, as in Terraform's state).
func (c *cluster) live(ctx context.Context, manifest map[string]any) (map[string]any, error) {
	u := unstructured.Unstructured{Object: manifest}
	ri, err := c.resource(u.GetAPIVersion(), u.GetKind(), u.GetNamespace())
	if err != nil {
		return nil, err
	}
	got, err := ri.Get(ctx, u.GetName(), metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(got.Object)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	return out, json.Unmarshal(b, &out)
}

// missing lists where live lacks what want holds: every key of a mapping,
// every item of a list (the same number of items), every scalar equal. The
// server adds its defaults; those are not compared.
func missing(path string, want, live any) []string {
	switch w := want.(type) {
	case map[string]any:
		l, ok := live.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: want a mapping, the server holds %s", orRoot(path), short(live))}
		}
		var out []string
		for k, v := range w {
			lv, ok := l[k]
			if !ok {
				if v == nil {
					continue
				}
				out = append(out, fmt.Sprintf("%s: the server does not hold it", join(path, k)))
				continue
			}
			out = append(out, missing(join(path, k), v, lv)...)
		}
		return out
	case []any:
		l, ok := live.([]any)
		if !ok || len(l) != len(w) {
			return []string{fmt.Sprintf("%s: want %s, the server holds %s", orRoot(path), short(want), short(live))}
		}
		var out []string
		for i := range w {
			out = append(out, missing(fmt.Sprintf("%s[%d]", path, i), w[i], l[i])...)
		}
		return out
	default:
		// kubernetes_manifest sends an int-or-string that holds the digits
		// of an integer as that integer (a targetPort of "8080").
		if w, ok := want.(string); ok {
			if l, ok := live.(float64); ok && w == strconv.FormatFloat(l, 'f', -1, 64) {
				return nil
			}
		}
		if !jsonEqual(want, live) {
			return []string{fmt.Sprintf("%s: want %s, the server holds %s", orRoot(path), short(want), short(live))}
		}
		return nil
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func orRoot(path string) string {
	if path == "" {
		return "(the object)"
	}
	return path
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// at is the value at a path such as spec.containers[0].image, or nil.
func at(v any, path string) any {
	for _, part := range strings.Split(path, ".") {
		name, idx := part, -1
		if i := strings.IndexByte(part, '['); i >= 0 {
			n, err := strconv.Atoi(strings.TrimSuffix(part[i+1:], "]"))
			if err != nil {
				return nil
			}
			name, idx = part[:i], n
		}
		m, _ := v.(map[string]any)
		v = m[name]
		if idx >= 0 {
			l, _ := v.([]any)
			if idx >= len(l) {
				return nil
			}
			v = l[idx]
		}
	}
	return v
}
