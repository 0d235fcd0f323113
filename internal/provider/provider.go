package provider

import (
	"context"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/celyaml/terraform-provider-celyaml/internal/chartremote"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// Ensure the implementation satisfies the expected interfaces.
var (
	_ provider.Provider              = &celyamlProvider{}
	_ provider.ProviderWithFunctions = &celyamlProvider{}
)

// celyamlProvider holds the one engine every data source read and function
// call shares, so that they share its compiled-program cache. The engine is
// built at first use: launching the provider and answering schema requests
// stay cheap, which matters because Terraform starts the provider for every
// command.
type celyamlProvider struct {
	version string

	once sync.Once
	eng  *engine.Engine

	hiddenOnce sync.Once
	hidden     *engine.Engine // HideKeys: for a data source with sensitive = true
}

// New returns a function that builds the provider, for providerserver.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &celyamlProvider{version: version}
	}
}

// engine returns the shared engine, building it on first use. It is safe
// for concurrent use: Terraform reads data sources and calls functions in
// parallel.
func (p *celyamlProvider) engine(ctx context.Context) *engine.Engine {
	p.once.Do(func() {
		tflog.Debug(ctx, "creating the CEL-YAML engine")
		opts := engine.DefaultOptions()
		opts.FetchChart = chartremote.ForEngine(chartremote.Options{}) // remote $chart: pinned, cached
		p.eng = engine.New(opts)
	})
	return p.eng
}

// engineHidingKeys is the engine a data source with sensitive = true
// renders with: its errors leave the keys of variables out (reference §6,
// HideKeys), as they leave values out.
func (p *celyamlProvider) engineHidingKeys(ctx context.Context) *engine.Engine {
	p.hiddenOnce.Do(func() {
		opts := engine.DefaultOptions()
		opts.HideKeys = true
		opts.FetchChart = chartremote.ForEngine(chartremote.Options{})
		p.hidden = engine.New(opts)
	})
	return p.hidden
}

func (p *celyamlProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "celyaml"
	resp.Version = p.version
}

func (p *celyamlProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The celyaml provider renders CEL-YAML templates: YAML whose `$`-keys " +
			"(`$let`, `$if`, `$for`, `$eval`, `$include`, `$assert`, `$schema`, ...) are evaluated with " +
			"[CEL](https://cel.dev), the expression language of Kubernetes validation rules.\n\n" +
			"It needs no configuration: `provider \"celyaml\" {}` or no block at all.\n\n" +
			"Use the `celyaml_render` data source, or the functions `provider::celyaml::render`, " +
			"`render_file`, `eval` and `manifests` (Terraform 1.8+, OpenTofu 1.8+). The functions accept " +
			"values that are unknown during plan and return as much as can be known, so `for_each` over " +
			"`manifests(...)` works before the resources it reads from exist.",
	}
}

func (p *celyamlProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (p *celyamlProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		func() datasource.DataSource {
			return &renderDataSource{engine: p.engine, hidingKeys: p.engineHidingKeys}
		},
	}
}

func (p *celyamlProvider) Resources(context.Context) []func() resource.Resource {
	return nil
}

func (p *celyamlProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{
		func() function.Function { return &renderFunction{engine: p.engine} },
		func() function.Function { return &renderFileFunction{engine: p.engine} },
		func() function.Function { return &evalFunction{engine: p.engine} },
		func() function.Function { return &manifestsFunction{} },
		func() function.Function { return &deepMergeFunction{} },
		func() function.Function { return &toYAMLFunction{} },
		func() function.Function { return &validateFunction{} },
	}
}
