//go:build apiserver

package apiserver

import (
	"bytes"
	"context"
	"flag"
	"os"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/transform"
)

var updateScopes = flag.Bool("update", false, "rewrite internal/engine/transform/zz_generated_scope.go from the server's discovery")

const scopeFile = "../engine/transform/zz_generated_scope.go"

// TestBuiltinScopes checks the table of built-in kinds that a transform's
// namespace reads (reference §10) against the API server's own discovery:
// every kind the server serves, other than those of
// CustomResourceDefinitions, with its scope. With -update it writes the
// table instead.
func TestBuiltinScopes(t *testing.T) {
	c := needCluster(t)
	ctx := context.Background()
	crds := map[string]bool{}
	list, err := c.dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, crd := range list.Items {
		crds[crd.Object["spec"].(map[string]any)["group"].(string)] = true
	}
	_, lists, err := c.disc.ServerGroupsAndResources()
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]bool{}
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			t.Fatal(err)
		}
		if crds[gv.Group] {
			continue
		}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") {
				continue // a subresource
			}
			k := gv.Group + "/" + r.Kind
			if prev, ok := live[k]; ok && prev != r.Namespaced {
				t.Fatalf("%s is namespaced in one version and not in another", k)
			}
			live[k] = r.Namespaced
		}
	}
	v, err := c.disc.ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	if *updateScopes {
		if err := os.WriteFile(scopeFile, transform.ScopeSource(live, v.GitVersion), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, version := transform.BuiltinScopes()
	if version != v.GitVersion {
		t.Errorf("the table was written from Kubernetes %s, the server is %s: run with -update", version, v.GitVersion)
	}
	var diffs []string
	for k, ns := range live {
		if g, ok := got[k]; !ok || g != ns {
			diffs = append(diffs, k)
		}
	}
	for k := range got {
		if _, ok := live[k]; !ok {
			diffs = append(diffs, k)
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Errorf("the table differs from the server's discovery for %s: run with -update", strings.Join(diffs, ", "))
	}
	want, err := os.ReadFile(scopeFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, transform.ScopeSource(live, v.GitVersion)) {
		t.Error(scopeFile + " is not what -update writes: run with -update")
	}
}
