package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// This file serves the provider over Terraform's plugin protocol 6.
//
// Everything is served by terraform-plugin-framework except two calls for
// celyaml_render, which the server answers itself: ValidateDataResourceConfig
// and ReadDataSource. For those two the framework's own work around the data
// source was most of the provider's time: with 100 data sources rendering
// 20 services each, it decodes the whole configuration into framework values
// and walks it again to nullify blocks (logging a TRACE line for every value
// inside `context`, which is written and then parsed by Terraform even with
// logging off), compares the new state with the configuration for semantic
// equality, and converts the state back, about 27 ms of CPU per read against
// well under 1 ms for the render itself. The server decodes the configuration
// with the schema's type, calls the same validateRender and read that the
// framework data source calls, and encodes the state: the data source has one
// implementation, and server_test.go checks that both paths answer alike.

var _ tfprotov6.ProviderServer = &server{}

// server is the framework's protocol server with the celyaml_render calls
// answered directly.
type server struct {
	tfprotov6.ProviderServer
	render *renderDataSource
}

// NewServer returns a function that builds the provider's protocol 6 server,
// for tf6server.Serve and for acceptance tests' ProtoV6ProviderFactories.
func NewServer(version string) func() tfprotov6.ProviderServer {
	return func() tfprotov6.ProviderServer {
		p := &celyamlProvider{version: version}
		return &server{
			ProviderServer: providerserver.NewProtocol6(p)(),
			render:         &renderDataSource{engine: p.engine},
		}
	}
}

func (s *server) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	if req == nil || req.TypeName != renderTypeName {
		return s.ProviderServer.ValidateDataResourceConfig(ctx, req)
	}
	resp := &tfprotov6.ValidateDataResourceConfigResponse{}
	config, diags := decodeConfig(req.Config)
	if !diags.HasError() {
		diags.Append(validateRender(config)...)
	}
	resp.Diagnostics = protoDiagnostics(diags)
	return resp, nil
}

func (s *server) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	if req == nil || req.TypeName != renderTypeName {
		return s.ProviderServer.ReadDataSource(ctx, req)
	}
	resp := &tfprotov6.ReadDataSourceResponse{}
	config, diags := decodeConfig(req.Config)
	if diags.HasError() {
		resp.Diagnostics = protoDiagnostics(diags)
		return resp, nil
	}
	state, diags := s.render.read(ctx, config)
	if diags.HasError() {
		// As the framework does, a failed read returns the configuration.
		state = config
	}
	dv, err := tfprotov6.NewDynamicValue(renderStateType(), state)
	if err != nil {
		diags.AddError("Unable to Convert State", "An unexpected error was encountered when converting the state to the protocol type. "+
			"This is always an issue in the provider and should be reported.\n\nError: "+err.Error())
	} else {
		resp.State = &dv
	}
	resp.Diagnostics = protoDiagnostics(diags)
	return resp, nil
}

// decodeConfig decodes a celyaml_render configuration with the schema's
// type. A missing configuration is a null object.
func decodeConfig(dv *tfprotov6.DynamicValue) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	typ := renderStateType()
	if dv == nil {
		return tftypes.NewValue(typ, nil), diags
	}
	v, err := dv.Unmarshal(typ)
	if err != nil {
		diags.AddError("Unable to Convert Configuration", "An unexpected error was encountered when converting the configuration from the protocol type. "+
			"This is always an issue in the provider and should be reported.\n\nError: "+err.Error())
	}
	return v, diags
}

// protoDiagnostics converts diagnostics to the protocol's, with their
// attribute paths.
func protoDiagnostics(diags diag.Diagnostics) []*tfprotov6.Diagnostic {
	if len(diags) == 0 {
		return nil
	}
	out := make([]*tfprotov6.Diagnostic, 0, len(diags))
	for _, d := range diags {
		pd := &tfprotov6.Diagnostic{
			Severity: tfprotov6.DiagnosticSeverityError,
			Summary:  d.Summary(),
			Detail:   d.Detail(),
		}
		if d.Severity() == diag.SeverityWarning {
			pd.Severity = tfprotov6.DiagnosticSeverityWarning
		}
		if dp, ok := d.(diag.DiagnosticWithPath); ok {
			pd.Attribute = attributePath(dp.Path())
		}
		out = append(out, pd)
	}
	return out
}

// attributePath converts a framework path to a protocol attribute path, or
// nil for the root.
func attributePath(p path.Path) *tftypes.AttributePath {
	steps := p.Steps()
	if len(steps) == 0 {
		return nil
	}
	ap := tftypes.NewAttributePath()
	for _, step := range steps {
		switch s := step.(type) {
		case path.PathStepAttributeName:
			ap = ap.WithAttributeName(string(s))
		case path.PathStepElementKeyString:
			ap = ap.WithElementKeyString(string(s))
		case path.PathStepElementKeyInt:
			ap = ap.WithElementKeyInt(int(s))
		default:
			// A set element's value cannot be named here; stop at its
			// parent.
			return ap
		}
	}
	return ap
}
