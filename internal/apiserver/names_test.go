//go:build apiserver

package apiserver

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/celyaml/terraform-provider-celyaml/internal/validate"
)

// nameProbes are names on which the built-in kinds' name rules differ:
// a path segment (RBAC) takes the colon and the capital, a DNS label
// (Service, Namespace, StatefulSet) refuses the dot, an IPAddress takes
// only the IP, and every rule refuses 254 characters.
var nameProbes = []string{"system:metrics-server", "a.b", "1abc", "Abc", "a_b", "10.0.0.1", strings.Repeat("a", 64), strings.Repeat("a", 254)}

// TestBuiltinNameRules: every built-in kind the server serves (and lists:
// not the create-only reviews), sent the probe names as a dry-run create
// of an otherwise empty object; validate, with the built-in schemas, must
// refuse metadata.name exactly where the server does.
func TestBuiltinNameRules(t *testing.T) {
	c := needCluster(t)
	ctx := context.Background()
	c.ensureNamespace(ctx, t, oracleNamespace)
	// A Pod's admission looks up its service account first: with no
	// controller manager, nothing makes the namespace's default one.
	sa := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "default"}}}
	if ri, err := c.client(ctx, sa, oracleNamespace); err != nil {
		t.Fatal(err)
	} else if _, err := ri.Create(ctx, sa, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	s, err := validate.Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	crdGroups := map[string]bool{}
	list, err := c.dyn.Resource(crdGVR).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, crd := range list.Items {
		g, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
		crdGroups[g] = true
	}
	_, lists, err := c.disc.ServerGroupsAndResources()
	if err != nil {
		t.Fatal(err)
	}
	var kinds []schema.GroupVersionKind
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			t.Fatal(err)
		}
		if crdGroups[gv.Group] {
			continue
		}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") || !hasVerb(r.Verbs, "create") || !hasVerb(r.Verbs, "list") {
				continue
			}
			kinds = append(kinds, gv.WithKind(r.Kind))
		}
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i].String() < kinds[j].String() })
	if len(kinds) < 40 {
		t.Fatalf("the server serves %d built-in kinds that can be created and listed; want at least 40", len(kinds))
	}
	agree := 0
	for _, gvk := range kinds {
		for _, name := range nameProbes {
			u := &unstructured.Unstructured{Object: map[string]any{}}
			u.SetGroupVersionKind(gvk)
			u.SetName(name)
			ri, err := c.client(ctx, u, oracleNamespace)
			if err != nil {
				t.Fatal(err)
			}
			_, err = ri.Create(ctx, u, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
			server := containsPath(verdictOf(err).paths, "metadata.name")
			r, cerr := s.CheckWith(toValue(u.Object), validate.Options{Request: validate.Create})
			if cerr != nil {
				t.Fatalf("%s: %v", gvk, cerr)
			}
			ours := false
			for _, v := range r.Violations {
				ours = ours || v.Path == "metadata.name"
			}
			if server != ours {
				t.Errorf("%s named %q: the server %s the name; validate %s it (server: %s)", gvk.GroupKind(), name,
					map[bool]string{true: "refuses", false: "accepts"}[server], map[bool]string{true: "refuses", false: "accepts"}[ours], oneLine(fmt.Sprint(err)))
				continue
			}
			agree++
		}
	}
	t.Logf("%d built-in kinds, %d names each: %d verdicts on the name agree", len(kinds), len(nameProbes), agree)
}

func hasVerb(verbs []string, v string) bool {
	for _, x := range verbs {
		if x == v {
			return true
		}
	}
	return false
}

func containsPath(paths []string, p string) bool {
	for _, x := range paths {
		if x == p {
			return true
		}
	}
	return false
}
