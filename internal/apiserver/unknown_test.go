//go:build apiserver

package apiserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/validate"
)

func applyOptions() metav1.ApplyOptions {
	return metav1.ApplyOptions{FieldManager: fieldManager}
}

// The kubernetes example's module, with its image unknown as at the first
// plan (it comes from a resource), then known as at apply; in a namespace
// of its own (TestExamplesRoundTripThroughServerSideApply stores the
// example's objects).
const (
	shopTemplate = "../../examples/kubernetes/modules/app/templates/app.yaml"
	shopVars     = `{"app": "shop", "ns": "celyaml-unknown", "environment": "prod",
		"services": [
			{"name": "cart", "port": 8080, "replicas": 3, "public": true, "config": {"CART_TTL": "30m"}},
			{"name": "catalog", "port": 8081, "replicas": 1, "public": false, "config": {"CACHE_SIZE": "512"}}]}`
	shopImage = "registry.acme.com/shop:2024.06.1"
)

// builtinSchemas loads the server's /openapi/v3 documents for core/v1 and
// apps/v1, and the corpus CRDs when crds is set.
func builtinSchemas(ctx context.Context, t *testing.T, c *cluster, crds bool) *validate.Schemas {
	t.Helper()
	var docs []value.Value
	for _, p := range []string{"api/v1", "apis/apps/v1"} {
		d, err := c.openAPI(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	if crds {
		text, err := os.ReadFile("testdata/crds.yaml")
		if err != nil {
			t.Fatal(err)
		}
		vals, err := yamlValues(text)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vals {
			u, err := toObject(v)
			if err != nil {
				t.Fatal(err)
			}
			c.installCRD(ctx, t, u)
		}
		docs = append(docs, vals...)
	}
	s, err := validate.Load(docs)
	if err != nil {
		t.Fatalf("validate.Load: %v", err)
	}
	return s
}

// TestUnknownImageValidatesTheRestAndTheServerAcceptsTheFinalDocuments:
// at plan the image is unknown; validate checks every document, refuses
// none, and leaves only the Deployments (which hold the image) waiting. At
// apply the image is known and the server accepts every document.
func TestUnknownImageValidatesTheRestAndTheServerAcceptsTheFinalDocuments(t *testing.T) {
	c := needCluster(t)
	ctx := context.Background()
	s := builtinSchemas(ctx, t, c, false)
	e := engine.New(engine.DefaultOptions())

	planVars := varsOf(t, shopVars)
	planVars["image"] = value.Unknown{}
	plan, err := e.RenderFile(ctx, filepath.FromSlash(shopTemplate), planVars)
	if err != nil {
		t.Fatal(err)
	}
	var waiting []string
	for _, d := range plan {
		id := docID(t, d) // every ID is known at plan
		r, err := s.Check(d)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if !r.Checked {
			t.Errorf("%s: not checked at plan", id)
		}
		for _, v := range r.Violations {
			t.Errorf("at plan: %s", v)
		}
		if r.Waiting {
			waiting = append(waiting, id)
		}
	}
	if got, want := strings.Join(waiting, " "), "apps/Deployment/celyaml-unknown/shop-cart apps/Deployment/celyaml-unknown/shop-catalog"; got != want {
		t.Errorf("waiting for apply: %s, want %s", got, want)
	}

	applyVars := varsOf(t, shopVars)
	applyVars["image"] = shopImage
	final, err := e.RenderFile(ctx, filepath.FromSlash(shopTemplate), applyVars)
	if err != nil {
		t.Fatal(err)
	}
	if len(final) != len(plan) {
		t.Fatalf("%d documents at apply, %d at plan", len(final), len(plan))
	}
	c.ensureNamespace(ctx, t, "celyaml-unknown")
	for _, d := range final {
		id := docID(t, d)
		r, err := s.Check(d)
		if err != nil || len(r.Violations) > 0 || r.Waiting {
			t.Errorf("%s at apply: validate says %v %v (waiting %v)", id, err, r.Violations, r.Waiting)
		}
		u, err := toObject(d)
		if err != nil {
			t.Fatal(err)
		}
		ri, err := c.client(ctx, u, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ri.Create(ctx, u, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"}); err != nil {
			t.Errorf("%s: the server refuses the final document: %v", id, err)
		}
	}
}

// HTTPRoutes whose first backend is named by a value not known at plan,
// beside a known error in the second backend: a value out of the schema's
// bounds, or a rule that fails (a Service without port). The known error is
// reported at plan, the unknown backend waits, and at apply the server
// refuses the route at the same field path.
var partlyUnknownRoutes = []struct{ name, second string }{
	{"schema", "{name: fallback, port: 80, weight: -1}"},
	{"rule", "{name: fallback}"},
}

const routeTemplate = `apiVersion: gateway.celyaml.test/v1
kind: HTTPRoute
metadata:
  name: partly-unknown
spec:
  rules:
    - backendRefs:
        - name:
            $eval: "${{ backend }}"
          port: 80
        - SECOND
`

func TestPartlyUnknownRouteReportsTheKnownErrorAtThePathTheServerNames(t *testing.T) {
	c := needCluster(t)
	ctx := context.Background()
	s := builtinSchemas(ctx, t, c, true)
	c.ensureNamespace(ctx, t, oracleNamespace)
	e := engine.New(engine.DefaultOptions())
	for _, tc := range partlyUnknownRoutes {
		t.Run(tc.name, func(t *testing.T) {
			src := engine.Source{Text: []byte(strings.Replace(routeTemplate, "SECOND", tc.second, 1))}
			final, err := e.Render(ctx, src, map[string]value.Value{"backend": "cart"})
			if err != nil {
				t.Fatal(err)
			}
			u, err := toObject(final[0])
			if err != nil {
				t.Fatal(err)
			}
			ri, err := c.client(ctx, u, oracleNamespace)
			if err != nil {
				t.Fatal(err)
			}
			_, err = ri.Create(ctx, u, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"})
			server := verdictOf(err)
			if !server.refused {
				t.Fatalf("the server accepts the final route")
			}

			plan, err := e.Render(ctx, src, map[string]value.Value{"backend": value.Unknown{}})
			if err != nil {
				t.Fatal(err)
			}
			refused, planPaths, text := validateVerdict(s, plan[0], validate.ServerSideApply)
			r, _ := s.Check(plan[0])
			if !r.Waiting {
				t.Errorf("at plan the route does not wait for its unknown backend")
			}
			if got, want := describe(refused, planPaths), describe(server.refused, server.paths); got != want {
				t.Errorf("at plan validate: %s (%s); at apply the server: %s (%s)", got, oneLine(text), want, server.text)
			}
		})
	}
}
