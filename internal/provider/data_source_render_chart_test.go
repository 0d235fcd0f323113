package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
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

// A $chart whose $values hold a value not known until apply makes the
// template's documents unknown as a whole; the data source's validation
// warns, naming the value's path and never its value (reference §11).
func TestPlanCheck_chartWithAnUnknownValueWarnsNamingItsPath(t *testing.T) {
	tmpl := "$chart: demo\n$values:\n  replicaCount: 2\n  image: {tag: {$eval: \"${{ tag }}\"}}\n"
	d := validateWith(t, map[string]tftypes.Value{
		"template": str(tmpl), "base_dir": str("../engine/testdata/charts"),
		"context": ctxObject(map[string]tftypes.Value{"tag": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}),
	})
	const want = "The $chart at <inline>:1:1 is given a value not known until apply, at $values.image.tag; " +
		"Helm cannot render a chart around it, so every document of the template is (known after apply) at plan, " +
		"and a for_each over manifests() of it fails with \"Invalid for_each argument\". " +
		"Give the chart values known at plan, and set what is known only after apply with a $transform (images, labels) or an overlay after the chart, which keep every document's key known."
	if len(d) != 1 || d[0].Severity() != diag.SeverityWarning || d[0].Summary() != "Chart rendered at apply" || d[0].Detail() != want {
		t.Fatalf("got %v\nwant detail %q", d, want)
	}
	if p := d[0].(diag.DiagnosticWithPath).Path(); !p.Equal(path.Root("template")) {
		t.Fatalf("path %s", p)
	}
}

// render_file renders a $chart document (reference §11); a $values that
// holds an unknown makes the result one unknown value, as Helm cannot
// render around it.
func TestRenderFileFunction_chart(t *testing.T) {
	f := &renderFileFunction{engine: testEngine}
	got := callOK(t, f, types.StringValue("testdata/files/chart.yaml"), vars(t, "tag", "2.0.0"))
	for _, want := range []string{`kind: "Deployment"`, `image: "ghcr.io/example/demo:2.0.0"`, `replicas: number(2)`, `name: "web-demo-caps"`} {
		if !strings.Contains(got, want) {
			t.Fatalf("got %s\nwant it to hold %s", got, want)
		}
	}
	v, ferr := callFunction(t, f, types.StringValue("testdata/files/chart.yaml"), vars(t, "tag", value.Unknown{}))
	if ferr != nil || !v.IsUnknown() {
		t.Fatalf("unknown tag: got %s %v", v, ferr)
	}
}
