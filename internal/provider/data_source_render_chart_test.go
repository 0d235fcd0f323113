package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A $chart document renders through the data source as through the
// engine (reference §11): the chart's documents in Helm's install order,
// each under its manifest key.
func TestRenderDataSource_chartDocumentsAreManifests(t *testing.T) {
	m := readOK(t, map[string]tftypes.Value{
		"template": str("$chart: demo\n$values: {replicaCount: 2}\n$release: {name: web, namespace: prod}\n$hooks: false\n"),
		"base_dir": str("../engine/testdata/charts"),
	})
	if got, want := manifestKeys(t, m.Manifests.UnderlyingValue()), "_/ConfigMap/prod/web-demo-caps _/ConfigMap/prod/web-sub _/Service/prod/web-demo apps/Deployment/prod/web-demo"; got != want {
		t.Fatalf("manifests:\n got %s\nwant %s", got, want)
	}
	if got, want := len(m.YAMLDocuments.Elements()), 4; got != want {
		t.Fatalf("yaml_documents: %d, want %d", got, want)
	}
}

// An error of the chart's templates is one diagnostic, Helm's message at
// the $chart key.
func TestRenderDataSource_chartTemplateErrorIsPositioned(t *testing.T) {
	_, d := read(t, map[string]tftypes.Value{
		"template": str("$chart: broken\n"),
		"base_dir": str("../engine/testdata/charts"),
	})
	want := "<inline>:1:1: $chart: the chart's templates fail: execution error at (broken/templates/configmap.yaml:6:11): broken needs .Values.name"
	if len(d) != 1 || d[0].Summary() != "Template rendering failed" || d[0].Detail() != want {
		t.Fatalf("got %v\nwant %s", d, want)
	}
}
