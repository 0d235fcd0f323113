//go:build apiserver

package apiserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
)

// The API server these tests talk to: the one scripts/kube-apiserver.sh
// starts, named by KUBECONFIG, with CELYAML_APISERVER=1 set.
type cluster struct {
	dyn  dynamic.Interface
	disc *discovery.DiscoveryClient

	mu        sync.Mutex
	resources map[schema.GroupVersionKind]metav1.APIResource
}

var (
	clusterOnce sync.Once
	shared      *cluster
	sharedErr   error
)

// needCluster returns the server, skips the test when there is none, or
// fails it when CI=true: in CI the oracle must run, never be skipped.
func needCluster(t *testing.T) *cluster {
	t.Helper()
	if os.Getenv("CELYAML_APISERVER") == "" || os.Getenv("KUBECONFIG") == "" {
		msg := "needs a real kube-apiserver: run `scripts/kube-apiserver.sh make test-apiserver` (it sets CELYAML_APISERVER=1 and KUBECONFIG)"
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but " + msg)
		}
		t.Skip(msg)
	}
	clusterOnce.Do(func() { shared, sharedErr = connect() })
	if sharedErr != nil {
		t.Fatalf("the API server named by KUBECONFIG: %v", sharedErr)
	}
	return shared
}

func connect() (*cluster, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG"))
	if err != nil {
		return nil, err
	}
	cfg.QPS, cfg.Burst = 500, 1000
	cfg.UserAgent = "celyaml-test"
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(rest.CopyConfig(cfg))
	if err != nil {
		return nil, err
	}
	c := &cluster{dyn: dyn, disc: disc, resources: map[schema.GroupVersionKind]metav1.APIResource{}}
	if _, err := disc.ServerVersion(); err != nil {
		return nil, err
	}
	return c, nil
}

// resource finds the resource that serves a kind, asking discovery again
// when it is not known yet (a CRD just established).
func (c *cluster) resource(ctx context.Context, gvk schema.GroupVersionKind) (metav1.APIResource, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.resources[gvk]; ok {
		return r, nil
	}
	list, err := c.disc.ServerResourcesForGroupVersionWithContext(ctx, gvk.GroupVersion().String())
	if err != nil {
		return metav1.APIResource{}, err
	}
	for _, r := range list.APIResources {
		if strings.Contains(r.Name, "/") {
			continue // a subresource
		}
		c.resources[gvk.GroupVersion().WithKind(r.Kind)] = r
	}
	r, ok := c.resources[gvk]
	if !ok {
		return metav1.APIResource{}, fmt.Errorf("the server serves no kind %s", gvk)
	}
	return r, nil
}

// client is the dynamic client for an object's resource, in namespace ns
// when the kind is namespaced and the object names none.
func (c *cluster) client(ctx context.Context, u *unstructured.Unstructured, ns string) (dynamic.ResourceInterface, error) {
	gvk := u.GroupVersionKind()
	r, err := c.resource(ctx, gvk)
	if err != nil {
		return nil, err
	}
	gvr := gvk.GroupVersion().WithResource(r.Name)
	if !r.Namespaced {
		return c.dyn.Resource(gvr), nil
	}
	if u.GetNamespace() != "" {
		ns = u.GetNamespace()
	}
	return c.dyn.Resource(gvr).Namespace(ns), nil
}

var namespaceGVR = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// ensureNamespace creates a namespace unless it exists. Tests never delete
// one: without a controller manager nothing would finalize it.
func (c *cluster) ensureNamespace(ctx context.Context, t *testing.T, name string) {
	t.Helper()
	ns := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name},
	}}
	_, err := c.dyn.Resource(namespaceGVR).Create(ctx, ns, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatalf("create namespace %s: %v", name, err)
	}
}

var crdGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// installCRD applies a CustomResourceDefinition and waits until it is
// Established and its kinds are served.
func (c *cluster) installCRD(ctx context.Context, t *testing.T, crd *unstructured.Unstructured) {
	t.Helper()
	if _, err := c.dyn.Resource(crdGVR).Apply(ctx, crd.GetName(), crd, metav1.ApplyOptions{FieldManager: fieldManager, Force: true}); err != nil {
		t.Fatalf("apply CustomResourceDefinition %s: %v", crd.GetName(), err)
	}
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	kind, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "kind")
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	deadline := time.Now().Add(60 * time.Second)
	for {
		got, err := c.dyn.Resource(crdGVR).Get(ctx, crd.GetName(), metav1.GetOptions{})
		if err == nil && established(got) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("CustomResourceDefinition %s not Established after 60s (last error: %v)", crd.GetName(), err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, v := range versions {
		vm, _ := v.(map[string]any)
		if served, _ := vm["served"].(bool); !served {
			continue
		}
		name, _ := vm["name"].(string)
		gvk := schema.GroupVersionKind{Group: group, Version: name, Kind: kind}
		for {
			_, err := c.resource(ctx, gvk)
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s not served 60s after its CRD was applied: %v", gvk, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

func established(crd *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	for _, c := range conds {
		cm, _ := c.(map[string]any)
		if cm["type"] == "Established" && cm["status"] == "True" {
			return true
		}
	}
	return false
}

// openAPI fetches one of the server's /openapi/v3 documents ("api/v1",
// "apis/apps/v1"), as `kubectl get --raw /openapi/v3/apis/apps/v1` saves it,
// as an engine value for validate.Load.
func (c *cluster) openAPI(ctx context.Context, path string) (value.Value, error) {
	doc, err := c.openAPIPlain(ctx, path) // builtin_test.go
	if err != nil {
		return nil, err
	}
	return toValue(doc), nil
}

// openAPIPath is the /openapi/v3 path that serves an apiVersion's kinds.
func openAPIPath(apiVersion string) string {
	if !strings.Contains(apiVersion, "/") {
		return "api/" + apiVersion
	}
	return "apis/" + apiVersion
}

const fieldManager = "celyaml-test"

// toValue turns JSON-like data (as utiljson decodes it: int64, float64)
// into an engine value, keys in sorted order.
func toValue(v any) value.Value {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		m := value.NewMap(len(keys))
		for _, k := range keys {
			m.Set(k, toValue(t[k]))
		}
		return m
	case []any:
		l := make([]value.Value, len(t))
		for i, e := range t {
			l[i] = toValue(e)
		}
		return l
	default:
		return t
	}
}

// toObject turns a known engine value into the object client-go sends: the
// same JSON that `celyaml render -o json` writes.
func toObject(v value.Value) (*unstructured.Unstructured, error) {
	raw, err := engine.AppendJSON(nil, v, false)
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := utiljson.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, errors.New("the document is not an object")
	}
	return &unstructured.Unstructured{Object: obj}, nil
}

// yamlValues reads a YAML stream into engine values, as the command line
// reads schema files.
func yamlValues(text []byte) ([]value.Value, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var out []value.Value
	for {
		var n yaml.Node
		if err := dec.Decode(&n); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		v, yerr := yamlnode.Plain(&n)
		if yerr != nil {
			return nil, fmt.Errorf("line %d: %s", yerr.Node.Line, yerr.Msg)
		}
		out = append(out, v)
	}
}

// serverVerdict is what the server said of a create: accepted, or refused
// with the field paths it named. A refusal without causes (a body the
// server could not decode, a strict-decoding error) has its paths read
// from the message; one that names none gives "<message: ...>", so that a
// comparison shows it.
type serverVerdict struct {
	refused bool
	paths   []string
	text    string // the server's message, for reports
}

// applyPaths reads the field paths of a server-side apply's refusal by
// the field manager ("failed to create typed patch object (...): .spec.a:
// field not declared in schema", one path a line after "errors:" when
// there are several), in the API server's form: a list-type map item,
// which the field manager names by its key ([name="web"]), is written
// [*], which samePaths reads as any index.
func applyPaths(msg string) []string {
	const prefix = "failed to create typed patch object ("
	i := strings.Index(msg, prefix)
	if i < 0 {
		return nil
	}
	rest := msg[i+len(prefix):]
	end := strings.Index(rest, "): ")
	if end < 0 {
		return nil
	}
	rest = strings.TrimPrefix(rest[end+3:], "errors:")
	var out []string
	for _, line := range strings.Split(rest, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, ".") {
			continue
		}
		var b strings.Builder
		depth, inString := 0, false
	scan:
		for j := 0; j < len(line); j++ {
			c := line[j]
			switch {
			case inString && c == '\\':
				j++
				continue
			case c == '"':
				inString = !inString
			case !inString && c == '[':
				depth++
			case !inString && c == ']':
				depth--
			case !inString && depth == 0 && c == ':':
				break scan
			}
			b.WriteByte(c)
		}
		out = append(out, strings.TrimPrefix(keyedRE.ReplaceAllStringFunc(b.String(), func(seg string) string {
			if _, err := strconv.Atoi(seg[1 : len(seg)-1]); err == nil {
				return seg
			}
			return "[*]"
		}), "."))
	}
	return out
}

var keyedRE = regexp.MustCompile(`\[(?:[^\]"]|"(?:[^"\\]|\\.)*")*\]`)

var (
	unknownFieldRE = regexp.MustCompile(`unknown field "([^"]+)"`)
	goFieldRE      = regexp.MustCompile(`Go struct field [A-Za-z0-9_]+\.([^ ]+) of type`)
)

func verdictOf(err error) serverVerdict {
	if err == nil {
		return serverVerdict{}
	}
	v := serverVerdict{refused: true, text: err.Error()}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		if err.Error() == "name is required" {
			// client-go refuses an apply without a name before sending it,
			// as kubectl does: the URL names the object.
			v.paths = []string{"metadata.name"}
			return v
		}
		v.paths = []string{"<error: " + err.Error() + ">"}
		return v
	}
	st := status.Status()
	seen := map[string]bool{}
	add := func(p string) {
		if p == "<nil>" {
			p = ""
		}
		if !seen[p] {
			seen[p] = true
			v.paths = append(v.paths, p)
		}
	}
	if st.Details != nil {
		for _, c := range st.Details.Causes {
			if c.Field != "" || c.Type != "" {
				add(c.Field)
			}
		}
	}
	if len(v.paths) == 0 {
		for _, p := range applyPaths(st.Message) {
			add(p)
		}
	}
	if len(v.paths) == 0 {
		for _, m := range unknownFieldRE.FindAllStringSubmatch(st.Message, -1) {
			add(strings.TrimPrefix(m[1], "."))
		}
		for _, m := range goFieldRE.FindAllStringSubmatch(st.Message, -1) {
			add(m[1])
		}
	}
	if len(v.paths) == 0 {
		add("<message: " + st.Message + ">")
	}
	sort.Strings(v.paths)
	return v
}
