//go:build helmoracle && unix

package kustomize

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/testcharts"
)

// The kustomize oracle on real charts' output: `helm template` of each
// chart of internal/testcharts with each of its value sets is the bundle,
// and every scenario (namespace, labels, selector labels, annotations,
// images, a removal, all at once) runs through kustomize's library and
// through celyaml's $transform, as TestKustomize_sameObjectsAsKustomizeBuild
// does on testdata's bundles. Run with `make test-helm` (build tag
// helmoracle: it needs the real helm, scripts/build-helm.sh).

// chartBundles are the images and the removal each chart's scenarios use;
// the removed object is in the output of every value set.
var chartBundles = map[string]bundle{
	"podinfo": {
		images: []image{{Name: "ghcr.io/stefanprodan/podinfo", NewName: "mirror.example.com/podinfo", NewTag: "6.9.3"}},
		remove: object{"v1", "Service", "apps", "web-podinfo"},
	},
	"cert-manager": {
		// the one image every value set renders (ha-minimal moves the
		// controller's and drops the cainjector)
		images: []image{{Name: "quay.io/jetstack/cert-manager-webhook", NewName: "mirror.example.com/jetstack/cert-manager-webhook", NewTag: "v1.21.3"}},
		remove: object{"admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", "", "cert-manager-webhook"},
	},
	"kyverno": {
		images: []image{
			{Name: "ghcr.io/kyverno/kyverno", NewTag: "v1.13.5"},
			{Name: "bitnami/kubectl", NewName: "mirror.example.com/bitnami/kubectl"},
		},
		remove: object{"v1", "ConfigMap", "kyverno", "kyverno"},
	},
}

// chartScopes are the custom kinds some value sets render without their
// CustomResourceDefinition (a ServiceMonitor, a cert-manager Certificate):
// namespaced, as `--schemas` with their CRDs would tell the transforms
// (reference §10) and as kustomize assumes.
var chartScopes = map[string]bool{
	"monitoring.coreos.com/ServiceMonitor": true,
	"monitoring.coreos.com/PodMonitor":     true,
	"cert-manager.io/Certificate":          true,
	"cert-manager.io/Issuer":               true,
}

// chartDeliberate is every difference the comparison finds on the
// charts' output; each is one of §10's deliberate differences.
var chartDeliberate = []deliberateDiff{
	{
		in:   []string{"kyverno/grafana-no-crds/none"},
		line: `_/ConfigMap/monitoring/kyverno-grafana-grafana: metadata.annotations: kustomize absent, celyaml {}`,
		why:  "the grafana subchart writes annotations: {}; celyaml keeps the object as the chart wrote it, kustomize drops an empty annotations mapping (the API server stores both alike)",
	},
}

func TestKustomizeCharts_sameObjectsAsKustomizeBuild(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	seen := map[string]bool{}
	for _, c := range testcharts.Charts {
		dir := c.CopyTo(t, filepath.Join(root, "charts"))
		b, ok := chartBundles[c.Name]
		if !ok {
			t.Fatalf("chartBundles has no entry for %s", c.Name)
		}
		for _, vs := range c.ValueSets {
			work := filepath.Join(root, c.Name+"-"+vs.Name)
			if err := os.MkdirAll(work, 0o755); err != nil {
				t.Fatal(err)
			}
			args := []string{c.Release, dir, "--namespace", c.Namespace, "--skip-tests"}
			if f := vs.ValuesFile(t, dir, work); f != "" {
				args = append(args, "--values", f)
			}
			data, err := testcharts.Template(t, filepath.Join(work, "helm-home"), args...)
			if err != nil {
				t.Fatal(err)
			}
			opts := engine.DefaultOptions()
			opts.Scopes = chartScopes
			eng := platformEngine(data, opts)
			base, err := kustomizeBuild(data, spec{}.kustomization())
			if err != nil {
				t.Fatal(err)
			}
			baseObj, err := objects(base)
			if err != nil {
				t.Fatal(err)
			}
			// The output as it is, then every transform at once and the
			// removal: one kustomize build of a chart's output costs up to
			// a second (kyverno's CRDs), so the scenarios one at a time stay
			// with testdata's bundles.
			for name, s := range map[string]spec{"none": {}, "all": scenarios(b)["all"]} {
				key := c.Name + "/" + vs.Name + "/" + name
				t.Run(key, func(t *testing.T) {
					compareScenario(t, ctx, eng, data, base, baseObj, name, key, s, chartDeliberate, seen)
				})
			}
		}
	}
	for _, d := range chartDeliberate {
		if d.why == "" {
			t.Errorf("deliberate difference %q says no why", d.line)
		}
		if !seen[d.line] && !t.Failed() {
			t.Errorf("deliberate difference %q applies to no scenario", d.line)
		}
	}
}
