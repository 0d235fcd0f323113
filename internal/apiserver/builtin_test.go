//go:build apiserver

package apiserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/celyaml/terraform-provider-celyaml/internal/validate"
	"github.com/celyaml/terraform-provider-celyaml/internal/validate/builtin"
)

// TestBuiltinSchemasAreWhatTheServerServes: every document of the bundle
// of built-in kinds validate carries (generated from k8s.io/kubernetes'
// published OpenAPI documents) equals, after the generator's
// normalisation, what the running kube-apiserver, built from the same
// k8s.io/kubernetes, serves at /openapi/v3/<group-version>. A
// group-version the server does not serve must be an alpha or beta one,
// which a server does not enable by default; every group-version the
// server serves of a built-in group must be in the bundle.
func TestBuiltinSchemasAreWhatTheServerServes(t *testing.T) {
	c := needCluster(t)
	ctx := context.Background()
	name, gz := builtin.Bundle()
	if gz == nil {
		t.Fatal("this build carries no built-in schemas: run `make builtin-schemas` (make test-apiserver does)")
	}
	version, docs, err := validate.BundleDocuments(gz)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	served, err := c.openAPIGroupVersions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	inBundle := map[string]bool{}
	groups := map[string]bool{}
	var compared, notServed []string
	for _, d := range docs {
		inBundle[d.GroupVersion] = true
		gv, err := schema.ParseGroupVersion(d.GroupVersion)
		if err != nil {
			t.Fatal(err)
		}
		groups[gv.Group] = true
		path := openAPIPath(d.GroupVersion)
		if !served[path] {
			if !strings.Contains(gv.Version, "alpha") && !strings.Contains(gv.Version, "beta") {
				t.Errorf("%s: in the bundle of Kubernetes %s but not served by the server", d.GroupVersion, version)
			}
			notServed = append(notServed, d.GroupVersion)
			continue
		}
		doc, err := c.openAPIPlain(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := validate.NormaliseOpenAPI(d.GroupVersion, doc)
		if err != nil {
			t.Fatal(err)
		}
		if diff := d.Diff(got); diff != "" {
			t.Errorf("%s: the bundle's document differs from the server's /openapi/v3/%s: %s", d.GroupVersion, path, diff)
		}
		compared = append(compared, d.GroupVersion)
	}
	var missing []string
	for path := range served {
		gv := strings.TrimPrefix(strings.TrimPrefix(path, "apis/"), "api/")
		g, err := schema.ParseGroupVersion(gv)
		if err != nil || !groups[g.Group] || inBundle[gv] {
			continue
		}
		missing = append(missing, gv)
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("the server serves group-versions of built-in groups that the bundle lacks: %s", strings.Join(missing, ", "))
	}
	if len(compared) < 20 {
		t.Errorf("compared only %d group-versions with the server: %s", len(compared), strings.Join(compared, ", "))
	}
	t.Logf("Kubernetes %s: %d group-versions equal to the server's; %d not served by default (%s)",
		version, len(compared), len(notServed), strings.Join(notServed, ", "))
}

// openAPIGroupVersions lists the paths of group-versions the server's
// /openapi/v3 index names ("api/v1", "apis/apps/v1", ...; not the
// discovery documents "api", "apis/apps", nor "version").
func (c *cluster) openAPIGroupVersions(ctx context.Context) (map[string]bool, error) {
	raw, err := c.disc.RESTClient().Get().AbsPath("/openapi/v3").DoRaw(ctx)
	if err != nil {
		return nil, fmt.Errorf("GET /openapi/v3: %w", err)
	}
	var index struct {
		Paths map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &index); err != nil {
		return nil, fmt.Errorf("/openapi/v3: %w", err)
	}
	out := map[string]bool{}
	for p := range index.Paths {
		if parts := strings.Split(p, "/"); (parts[0] == "api" && len(parts) == 2) || (parts[0] == "apis" && len(parts) == 3) {
			out[p] = true
		}
	}
	return out, nil
}

// openAPIPlain fetches one /openapi/v3 document in the form the generator
// reads k8s.io/kubernetes' copies (validate.DecodeJSON).
func (c *cluster) openAPIPlain(ctx context.Context, path string) (map[string]any, error) {
	raw, err := c.disc.RESTClient().Get().AbsPath("/openapi/v3/" + path).DoRaw(ctx)
	if err != nil {
		return nil, fmt.Errorf("GET /openapi/v3/%s: %w", path, err)
	}
	v, err := validate.DecodeJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("/openapi/v3/%s: %w", path, err)
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("/openapi/v3/%s: not a JSON object", path)
	}
	return doc, nil
}
