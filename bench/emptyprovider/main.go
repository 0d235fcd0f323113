// Command emptyprovider is a throwaway terraform-plugin-framework provider
// that does nothing, for bench/run: a plan against it measures what
// Terraform and the framework cost by themselves (three process launches,
// schema, validation, one data source read), so that the difference to the
// same plan against celyaml is what celyaml itself costs (goal 5 of the performance guide).
//
// Built with -tags celyamldeps (deps.go) it also links celyaml's engine and
// so its dependencies, whose package initialisation then runs at each
// launch, and serves as the provider benchdeps of bench/run: the difference between the two
// empty providers is what those dependencies cost before celyaml does
// anything.
//
// It has one data source, bench_noop, with the arguments of celyaml_render
// (so Terraform decodes the same configuration) and one computed string that
// stays empty.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// address is the provider's source address; deps.go changes it.
var address = "registry.terraform.io/bench/bench"

type emptyProvider struct{}

func (emptyProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "bench"
}

func (emptyProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{}
}

func (emptyProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (emptyProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{func() datasource.DataSource { return noop{} }}
}

func (emptyProvider) Resources(context.Context) []func() resource.Resource { return nil }

type noop struct{}

type noopModel struct {
	Template     types.String  `tfsdk:"template"`
	TemplateFile types.String  `tfsdk:"template_file"`
	Context      types.Dynamic `tfsdk:"context"`
	YAML         types.String  `tfsdk:"yaml"`
}

func (noop) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_noop"
}

func (noop) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{Attributes: map[string]dschema.Attribute{
		"template":      dschema.StringAttribute{Optional: true},
		"template_file": dschema.StringAttribute{Optional: true},
		"context":       dschema.DynamicAttribute{Optional: true},
		"yaml":          dschema.StringAttribute{Computed: true},
	}}
}

func (noop) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m noopModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.YAML = types.StringValue("")
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func main() {
	err := providerserver.Serve(context.Background(), func() provider.Provider { return emptyProvider{} },
		providerserver.ServeOpts{Address: address, ProtocolVersion: 6})
	if err != nil {
		log.Fatal(err)
	}
}
