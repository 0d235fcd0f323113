//go:build apiserver

package apiserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/testcrds"
	"github.com/celyaml/terraform-provider-celyaml/internal/validate"
)

// releasedNamespace holds the released corpus's namespaced documents, only
// ever sent as dry runs.
const releasedNamespace = "celyaml-released"

// releasedDiffer lists, per request, the released corpus's documents on
// which validate and the server must disagree, with the reason; the
// validating guide's section on the released corpus says the same.
var releasedDiffer = map[validate.Request]map[string]string{
	validate.ServerSideApply: {},
	validate.Create:          {},
}

// releasedDoc is one document of the released corpus: a project's own
// example, or one broken on purpose from it (name ends in /unknown-field,
// /kind-typo).
type releasedDoc struct {
	name string
	u    *unstructured.Unstructured
}

// TestReleasedCRDsAgreeWithTheServer: the CRDs of seven projects, as their
// module zips ship them (internal/testcrds; argo-cd's as its install.yaml,
// a bundle that mixes them with the rest of the install), installed on the
// server and loaded into validate as --schemas loads them; the projects'
// own examples, and from each a copy with a field no schema declares and
// one with its kind misspelt, are sent to the server as a dry-run
// server-side apply and a dry-run create and checked by validate under
// the same request: the same verdicts at the same field paths, except the
// documents of releasedDiffer.
func TestReleasedCRDsAgreeWithTheServer(t *testing.T) {
	c := needCluster(t)
	ctx := context.Background()
	c.ensureNamespace(ctx, t, releasedNamespace)
	projects, err := testcrds.Projects()
	if err != nil {
		t.Fatal(err)
	}
	var schemaDocs []value.Value
	var crds []*unstructured.Unstructured
	crdCount := 0
	for _, p := range projects {
		for _, f := range p.CRDs {
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			vals, err := yamlValues(text)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, v := range vals {
				if v == nil {
					continue
				}
				schemaDocs = append(schemaDocs, v)
				u, err := toObject(v)
				if err != nil {
					t.Fatal(err)
				}
				if u.GetKind() == "CustomResourceDefinition" {
					crds = append(crds, u)
					crdCount++
				}
			}
		}
	}
	if crdCount < 74 {
		t.Fatalf("%d released CRDs; the corpus should keep at least 74", crdCount)
	}
	s, err := validate.Load(schemaDocs)
	if err != nil {
		t.Fatalf("validate.Load of the released CRDs: %v", err)
	}
	byKind := map[string]*unstructured.Unstructured{}
	for _, crd := range crds {
		group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
		kind, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "kind")
		byKind[group+"/"+kind] = crd
	}

	// The examples, and the CRDs of their kinds: the server needs only
	// those (installing all 76 costs CI half a minute); validate reads
	// them all, as --schemas does.
	var docs []releasedDoc
	need := map[string]*unstructured.Unstructured{}
	for _, p := range projects {
		for _, f := range p.Examples {
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			vals, err := yamlValues(text)
			if err != nil {
				continue // not YAML this corpus can read (a template)
			}
			base := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
			for i, v := range vals {
				u, err := toObject(v)
				if err != nil || u.GetKind() == "" || u.GetAPIVersion() == "" || u.GetName() == "" {
					continue
				}
				gk := u.GroupVersionKind().GroupKind()
				if crd := byKind[gk.Group+"/"+gk.Kind]; crd != nil {
					need[crd.GetName()] = crd
				} else if _, err := c.resource(ctx, u.GroupVersionKind()); err != nil {
					continue // a kind of a CRD outside the corpus
				}
				if u.GetNamespace() != "" {
					u.SetNamespace(releasedNamespace)
				}
				name := fmt.Sprintf("%s:%s#%d", p.Module, base, i)
				docs = append(docs, releasedDoc{name: name, u: u})
				broken := u.DeepCopy()
				if err := unstructured.SetNestedField(broken.Object, int64(1), "spec", "celyamlUnknownField"); err == nil {
					docs = append(docs, releasedDoc{name: name + "/unknown-field", u: broken})
				}
				typo := u.DeepCopy()
				typo.SetKind(u.GetKind() + "s")
				docs = append(docs, releasedDoc{name: name + "/kind-typo", u: typo})
			}
		}
	}
	var install []*unstructured.Unstructured
	for _, crd := range need {
		install = append(install, crd)
	}
	start := time.Now()
	c.installCRDs(ctx, t, install)
	t.Logf("%d CRDs of %d projects read; the %d the examples use installed in %s", crdCount, len(projects), len(install), time.Since(start).Round(time.Millisecond))
	if len(docs) < 150 {
		t.Fatalf("the released corpus has %d documents; it should keep at least 150", len(docs))
	}
	servers := map[validate.Request][]serverVerdict{validate.ServerSideApply: make([]serverVerdict, len(docs)), validate.Create: make([]serverVerdict, len(docs))}
	for i, d := range docs {
		ri, err := c.client(ctx, d.u, releasedNamespace)
		if err != nil {
			// A kind the server does not serve: what the server says to
			// kubectl, which asks discovery first.
			v := serverVerdict{refused: true, paths: []string{"kind"}, text: err.Error()}
			servers[validate.ServerSideApply][i], servers[validate.Create][i] = v, v
			continue
		}
		_, err = ri.Create(ctx, d.u, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"})
		servers[validate.Create][i] = verdictOf(err)
		_, err = ri.Apply(ctx, d.u.GetName(), d.u, metav1.ApplyOptions{DryRun: []string{metav1.DryRunAll}, FieldManager: fieldManager, Force: true})
		servers[validate.ServerSideApply][i] = verdictOf(err)
	}
	for _, req := range []validate.Request{validate.ServerSideApply, validate.Create} {
		t.Run(req.String(), func(t *testing.T) {
			var differ []string
			refusedBoth := 0
			for i, d := range docs {
				server := servers[req][i]
				refused, paths, text := releasedVerdict(s, d.u, req)
				if refused && server.refused {
					refusedBoth++
					if !strings.HasSuffix(d.name, "/unknown-field") && !strings.HasSuffix(d.name, "/kind-typo") {
						t.Logf("%s, a project's own example, is refused by both: %s", d.name, oneLine(text))
					}
				}
				if refused == server.refused && (!refused || samePaths(paths, server.paths)) {
					continue
				}
				differ = append(differ, d.name)
				if _, listed := releasedDiffer[req][d.name]; listed {
					continue
				}
				t.Errorf("%s: the server %s; validate %s\n  server:   %s\n  validate: %s",
					d.name, describe(server.refused, server.paths), describe(refused, paths), oneLine(server.text), oneLine(text))
			}
			for n, reason := range releasedDiffer[req] {
				if !contains(differ, n) {
					t.Errorf("%s is listed in releasedDiffer for a %s (%s) but validate and the server agree on it", n, req, reason)
				}
			}
			t.Logf("%s: %d documents (%d refused by both): %d agree, %d differ (%d listed)", req, len(docs), refusedBoth, len(docs)-len(differ), len(differ), len(releasedDiffer[req]))
		})
	}
}

// releasedVerdict is validate's verdict on a document, a kind the schemas
// say does not exist refused at "kind".
func releasedVerdict(s *validate.Schemas, u *unstructured.Unstructured, req validate.Request) (bool, []string, string) {
	v := toValue(u.Object)
	r, err := s.CheckWith(v, validate.Options{Request: req})
	if err != nil {
		if strings.Contains(err.Error(), "does not exist in") || strings.Contains(err.Error(), "is not defined by the CustomResourceDefinitions") {
			return true, []string{"kind"}, err.Error()
		}
		return true, []string{"<error: " + err.Error() + ">"}, err.Error()
	}
	seen := map[string]bool{}
	var paths, lines []string
	for _, viol := range r.Violations {
		lines = append(lines, viol.String())
		if !seen[viol.Path] {
			seen[viol.Path] = true
			paths = append(paths, viol.Path)
		}
	}
	sort.Strings(paths)
	return len(r.Violations) > 0, paths, strings.Join(lines, "\n")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// installCRDs applies every CRD, then waits until all are Established
// (one list a poll) and their kinds served.
func (c *cluster) installCRDs(ctx context.Context, t *testing.T, crds []*unstructured.Unstructured) {
	t.Helper()
	want := map[string]bool{}
	for _, crd := range crds {
		if _, err := c.dyn.Resource(crdGVR).Apply(ctx, crd.GetName(), crd, metav1.ApplyOptions{FieldManager: fieldManager, Force: true}); err != nil {
			t.Fatalf("apply CustomResourceDefinition %s: %v", crd.GetName(), err)
		}
		want[crd.GetName()] = true
	}
	deadline := time.Now().Add(120 * time.Second)
	for {
		list, err := c.dyn.Resource(crdGVR).List(ctx, metav1.ListOptions{})
		left := len(want)
		if err == nil {
			for i := range list.Items {
				if want[list.Items[i].GetName()] && established(&list.Items[i]) {
					left--
				}
			}
		}
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d CustomResourceDefinitions not Established after 120s (last error: %v)", left, len(want), err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, crd := range crds {
		group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
		kind, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "kind")
		versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
		for _, v := range versions {
			vm, _ := v.(map[string]any)
			if served, _ := vm["served"].(bool); !served {
				continue
			}
			name, _ := vm["name"].(string)
			gvk := schema.GroupVersionKind{Group: group, Version: name, Kind: kind}
			for {
				if _, err := c.resource(ctx, gvk); err == nil {
					break
				} else if time.Now().After(deadline) {
					t.Fatalf("%s not served 120s after its CRD was applied: %v", gvk, err)
				}
				time.Sleep(100 * time.Millisecond)
			}
		}
	}
}
