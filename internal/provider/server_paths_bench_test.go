package provider

import (
	"context"
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// BenchmarkServer_paths measures what one function call costs on each
// path the provider could serve it by, from the request's bytes to the
// response's: raw (msgpack bytes to engine values and back, server_raw.go),
// tftypes (the protocol values decoded with the parameters' types, the
// function's call), and the framework (terraform-plugin-framework's
// CallFunction, which converts to its own values and back around the same
// call). server.go keeps one path per call from these figures.
func BenchmarkServer_paths(b *testing.B) {
	small := tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"x": tftypes.Number}},
		map[string]tftypes.Value{"x": tftypes.NewValue(tftypes.Number, big.NewFloat(1))})
	doc := tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"kind": tftypes.String, "metadata": tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String}}}},
		map[string]tftypes.Value{
			"kind":     tftypes.NewValue(tftypes.String, "ConfigMap"),
			"metadata": tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String}}, map[string]tftypes.Value{"name": tftypes.NewValue(tftypes.String, "a")}),
		})
	docs := tftypes.NewValue(tftypes.Tuple{ElementTypes: []tftypes.Type{doc.Type()}}, []tftypes.Value{doc})
	cases := []struct {
		name string
		req  *tfprotov6.CallFunctionRequest
	}{
		{"eval_x_plus_1", callRequest(b, "eval", tftypes.NewValue(tftypes.String, "x + 1"), small)},
		{"render_file_kitchen_sink", callRequest(b, "render_file", tftypes.NewValue(tftypes.String, kitchenSinkPath), benchContext())},
		{"manifests_one", callRequest(b, "manifests", docs)},
	}
	ctx := context.Background()
	srv := NewServer("test")().(*server)
	srv.functionsOnce.Do(func() { srv.functions = functionTable(ctx, srv.provider) })
	framework := providerserver.NewProtocol6(New("test")())()
	for _, c := range cases {
		sf := srv.functions[c.req.Name]
		paths := []struct {
			name string
			call func() (*tfprotov6.CallFunctionResponse, error)
		}{
			{"framework", func() (*tfprotov6.CallFunctionResponse, error) { return framework.CallFunction(ctx, c.req) }},
		}
		if sf.f != nil {
			paths = append(paths, struct {
				name string
				call func() (*tfprotov6.CallFunctionResponse, error)
			}{"tftypes", func() (*tfprotov6.CallFunctionResponse, error) { return srv.callTypes(ctx, sf, c.req), nil }})
		}
		if sf.raw != nil {
			paths = append(paths, struct {
				name string
				call func() (*tfprotov6.CallFunctionResponse, error)
			}{"raw", func() (*tfprotov6.CallFunctionResponse, error) {
				result, ferr, handled := sf.raw.callRaw(ctx, c.req.Arguments)
				if !handled {
					b.Fatal("the raw path declined")
				}
				return rawResponse(result, ferr), nil
			}})
		}
		for _, p := range paths {
			b.Run(c.name+"/"+p.name, func(b *testing.B) {
				for b.Loop() {
					resp, err := p.call()
					if err != nil || resp == nil || resp.Error != nil {
						b.Fatal(err, resp)
					}
				}
			})
		}
	}
}

// BenchmarkServer_validatePaths measures celyaml_render's validation on
// each path: the kitchen sink's configuration with its 20-service context
// known (as in a plan's validation of constants), and with one service's
// port unknown (as when the context reads a resource's attribute).
func BenchmarkServer_validatePaths(b *testing.B) {
	ctx := context.Background()
	srv := NewServer("test")().(*server)
	framework := providerserver.NewProtocol6(New("test")())()
	known := benchContext()
	var partly tftypes.Value
	{
		var attrs map[string]tftypes.Value // As shares benchContext's maps and slices: a copy of its own
		if err := benchContext().As(&attrs); err != nil {
			b.Fatal(err)
		}
		var svcs []tftypes.Value
		if err := attrs["services"].As(&svcs); err != nil {
			b.Fatal(err)
		}
		var svc map[string]tftypes.Value
		if err := svcs[0].As(&svc); err != nil {
			b.Fatal(err)
		}
		svc["port"] = tftypes.NewValue(tftypes.Number, tftypes.UnknownValue)
		svcs[0] = tftypes.NewValue(svcs[0].Type(), svc)
		attrs["services"] = tftypes.NewValue(attrs["services"].Type(), svcs)
		partly = tftypes.NewValue(known.Type(), attrs)
	}
	for _, c := range []struct {
		name    string
		context tftypes.Value
	}{{"known", known}, {"partly_unknown", partly}} {
		typ := renderStateType()
		attrs := map[string]tftypes.Value{}
		for name, at := range typ.AttributeTypes {
			attrs[name] = tftypes.NewValue(at, nil)
		}
		attrs["template_file"] = tftypes.NewValue(tftypes.String, kitchenSinkPath)
		attrs["context"] = c.context
		dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
		if err != nil {
			b.Fatal(err)
		}
		req := &tfprotov6.ValidateDataResourceConfigRequest{TypeName: renderTypeName, Config: &dv}
		type path struct {
			name string
			call func() []*tfprotov6.Diagnostic
		}
		paths := []path{
			{"framework", func() []*tfprotov6.Diagnostic {
				resp, err := framework.ValidateDataResourceConfig(ctx, req)
				if err != nil {
					b.Fatal(err)
				}
				return resp.Diagnostics
			}},
			{"tftypes", func() []*tfprotov6.Diagnostic { return srv.validateTypes(ctx, req).Diagnostics }},
		}
		if _, ok := validateRaw(dv.MsgPack); ok {
			paths = append(paths, path{"raw", func() []*tfprotov6.Diagnostic {
				diags, _ := validateRaw(dv.MsgPack)
				return protoDiagnostics(diags)
			}})
		}
		for _, p := range paths {
			b.Run(c.name+"/"+p.name, func(b *testing.B) {
				for b.Loop() {
					if diags := p.call(); len(diags) > 0 {
						b.Fatal(diags)
					}
				}
			})
		}
	}
}
