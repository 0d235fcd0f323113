package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	chartloader "helm.sh/helm/v4/pkg/chart/v2/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	"helm.sh/helm/v4/pkg/repo/v1/repotest"
)

// A remote $chart (reference §11) is fetched into the cache folder and
// rendered as the same chart from a local folder: here the demo chart,
// packaged with Helm's SDK and served by Helm's test chart repository
// on 127.0.0.1; the second read, with the repository stopped, comes from
// the cache.
func TestRenderDataSource_remoteChartComesFromTheCacheAfterItsFirstRead(t *testing.T) {
	t.Setenv("CELYAML_CACHE", t.TempDir())
	ch, err := chartloader.Load("../engine/testdata/charts/demo")
	if err != nil {
		t.Fatal(err)
	}
	tgz, err := chartutil.Save(ch, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv := repotest.NewTempServer(t, repotest.WithChartSourceGlob(tgz))
	t.Cleanup(srv.Stop)
	tmpl := str(fmt.Sprintf("$chart: {repository: %q, name: %s, version: %s}\n$values: {replicaCount: 2}\n$release: {name: web, namespace: prod}\n$hooks: false\n",
		srv.URL(), ch.Metadata.Name, ch.Metadata.Version))
	p := &celyamlProvider{} // the provider's own engines, with their chart fetcher
	for _, when := range []string{"downloaded", "cached"} {
		cfg := dsConfig(t, map[string]tftypes.Value{"template": tmpl})
		resp := datasource.ReadResponse{State: tfsdk.State{Schema: cfg.Schema, Raw: tftypes.NewValue(cfg.Raw.Type(), nil)}}
		(&renderDataSource{engine: p.engine, hidingKeys: p.engineHidingKeys}).Read(t.Context(), datasource.ReadRequest{Config: cfg}, &resp)
		var m renderModel
		if !resp.Diagnostics.HasError() {
			resp.Diagnostics.Append(resp.State.Get(t.Context(), &m)...)
		}
		if resp.Diagnostics.HasError() {
			t.Fatalf("%s: %v", when, resp.Diagnostics)
		}
		if got, want := manifestKeys(t, m.Manifests.UnderlyingValue()), "_/ConfigMap/prod/web-demo-caps _/ConfigMap/prod/web-sub _/Service/prod/web-demo apps/Deployment/prod/web-demo"; got != want {
			t.Fatalf("%s: manifests:\n got %s\nwant %s", when, got, want)
		}
		srv.Stop()
	}
}
