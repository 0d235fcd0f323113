//go:build apiserver

package apiserver

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"golang.org/x/tools/txtar"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// The golden case of selectorLabels on ReplicationControllers (reference
// §10 $transform) gives none to a controller without a selector, on the
// word that the API server then gives it its pod template's labels, the
// new ones among them. This asks the server: each rendered controller,
// applied server-side as a dry run, comes back selecting its template's
// labels and the new one.
func TestSelectorLabelsLeaveAReplicationControllerTheServerDefaultsItsSelector(t *testing.T) {
	c := needCluster(t)
	ctx := context.Background()
	const golden = "../engine/testdata/golden/transform/transform_selector_labels_give_no_selector_to_a_replication_controller_without_one.txtar"
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	var tmpl []byte
	for _, f := range txtar.Parse(data).Files {
		if f.Name == "template.yaml" {
			tmpl = f.Data
		}
	}
	docs, err := engine.New(engine.Options{}).RenderDocuments(ctx, engine.Source{Name: "template.yaml", Text: tmpl}, nil)
	if err != nil {
		t.Fatal(err)
	}
	const ns = "celyaml-selector"
	c.ensureNamespace(ctx, t, ns)
	want := map[string]string{
		"web":    `{"app":"web","part-of":"edge"}`,
		"legacy": `{"app":"legacy","part-of":"edge"}`,
	}
	if len(docs) != len(want) {
		t.Fatalf("rendered %d documents, want %d", len(docs), len(want))
	}
	for _, d := range docs {
		u, err := toObject(d.Value)
		if err != nil {
			t.Fatal(err)
		}
		ri, err := c.client(ctx, u, ns)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ri.Apply(ctx, u.GetName(), u, metav1.ApplyOptions{DryRun: []string{metav1.DryRunAll}, FieldManager: fieldManager})
		if err != nil {
			t.Fatalf("%s: the server refused it: %v", u.GetName(), err)
		}
		sel, _, _ := unstructured.NestedStringMap(got.Object, "spec", "selector")
		b, _ := json.Marshal(sel)
		if string(b) != want[u.GetName()] {
			t.Errorf("%s: the server's selector is %s, want %s", u.GetName(), b, want[u.GetName()])
		}
	}
}
