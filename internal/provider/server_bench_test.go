package provider

import (
	"context"
	"math/big"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// kitchenSinkPath is the engine's benchmark template, the one make bench's
// Terraform plans render.
const kitchenSinkPath = "../engine/testdata/bench/kitchen_sink.yaml"

// benchContext is the 20-service context of bench/tf/many-function, as
// Terraform sends it: an object whose services are a tuple of objects.
func benchContext() tftypes.Value {
	tagT := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"cost-center": tftypes.String, "owner": tftypes.String, "tier": tftypes.String}}
	svcT := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String, "ha": tftypes.Bool, "port": tftypes.Number, "tags": tagT}}
	svcs := make([]tftypes.Value, 20)
	types := make([]tftypes.Type, 20)
	for i := range svcs {
		svcs[i] = tftypes.NewValue(svcT, map[string]tftypes.Value{
			"name": tftypes.NewValue(tftypes.String, "svc"+strconv.Itoa(i)),
			"ha":   tftypes.NewValue(tftypes.Bool, i%3 != 0),
			"port": tftypes.NewValue(tftypes.Number, big.NewFloat(float64(8000+i))),
			"tags": tftypes.NewValue(tagT, map[string]tftypes.Value{
				"cost-center": tftypes.NewValue(tftypes.String, strconv.Itoa(1000+i)),
				"owner":       tftypes.NewValue(tftypes.String, "team-"+strconv.Itoa(i%13)),
				"tier":        tftypes.NewValue(tftypes.String, []string{"web", "api", "batch"}[i%3]),
			}),
		})
		types[i] = svcT
	}
	servicesT := tftypes.Tuple{ElementTypes: types}
	ctxT := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"env": tftypes.String, "region": tftypes.String, "services": servicesT}}
	return tftypes.NewValue(ctxT, map[string]tftypes.Value{
		"env":      tftypes.NewValue(tftypes.String, "prod"),
		"region":   tftypes.NewValue(tftypes.String, "region-1"),
		"services": tftypes.NewValue(servicesT, svcs),
	})
}

// callRequest encodes a function call as Terraform sends it.
func callRequest(tb testing.TB, name string, first tftypes.Value, rest ...tftypes.Value) *tfprotov6.CallFunctionRequest {
	tb.Helper()
	req := &tfprotov6.CallFunctionRequest{Name: name}
	for i, a := range append([]tftypes.Value{first}, rest...) {
		typ := tftypes.Type(tftypes.DynamicPseudoType)
		if i == 0 && name != "manifests" {
			typ = tftypes.String
		}
		dv, err := tfprotov6.NewDynamicValue(typ, a)
		if err != nil {
			tb.Fatal(err)
		}
		req.Arguments = append(req.Arguments, &dv)
	}
	return req
}

// BenchmarkServer_call measures the provider's share of one function call
// on the protocol, from the request's bytes to the response's: a trivial
// eval (the call floor), eval of size(services) with the 20-service
// context, and render_file of the kitchen sink with it, beside the
// engine's own render of the same template and variables (engine_render),
// so that the overhead reads as a ratio in one run.
func BenchmarkServer_call(b *testing.B) {
	ctxVal := benchContext()
	small := tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"x": tftypes.Number}},
		map[string]tftypes.Value{"x": tftypes.NewValue(tftypes.Number, big.NewFloat(1))})
	cases := []struct {
		name string
		req  *tfprotov6.CallFunctionRequest
	}{
		{"floor_eval_x_plus_1", callRequest(b, "eval", tftypes.NewValue(tftypes.String, "x + 1"), small)},
		{"eval_size_services", callRequest(b, "eval", tftypes.NewValue(tftypes.String, "size(services)"), ctxVal)},
		{"render_file_kitchen_sink", callRequest(b, "render_file", tftypes.NewValue(tftypes.String, kitchenSinkPath), ctxVal)},
	}
	srv := NewServer("test")()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				resp, err := srv.CallFunction(context.Background(), c.req)
				if err != nil || resp.Error != nil {
					b.Fatal(err, resp.Error)
				}
			}
		})
	}
	b.Run("engine_render", func(b *testing.B) {
		vars, _, err := contextVars(ctxVal)
		if err != nil {
			b.Fatal(err)
		}
		e := engine.New(engine.DefaultOptions())
		for b.Loop() {
			if _, err := e.RenderFile(context.Background(), kitchenSinkPath, vars); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkServer_read measures a read of celyaml_render on the protocol:
// a one-line inline template with no context (the read floor) and the
// kitchen sink file with the 20-service context; compare with
// BenchmarkServer_call/engine_render in the same run.
func BenchmarkServer_read(b *testing.B) {
	srv := NewServer("test")()
	for _, c := range []struct {
		name string
		vals map[string]tftypes.Value
	}{
		{"floor_one_line", map[string]tftypes.Value{"template": tftypes.NewValue(tftypes.String, "a: 1\n")}},
		{"kitchen_sink", map[string]tftypes.Value{"template_file": tftypes.NewValue(tftypes.String, kitchenSinkPath), "context": benchContext()}},
	} {
		b.Run(c.name, func(b *testing.B) {
			typ := renderStateType()
			attrs := map[string]tftypes.Value{}
			for name, at := range typ.AttributeTypes {
				attrs[name] = tftypes.NewValue(at, nil)
				if v, ok := c.vals[name]; ok {
					attrs[name] = v
				}
			}
			dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
			if err != nil {
				b.Fatal(err)
			}
			req := &tfprotov6.ReadDataSourceRequest{TypeName: renderTypeName, Config: &dv}
			for b.Loop() {
				resp, err := srv.ReadDataSource(context.Background(), req)
				if err != nil || len(resp.Diagnostics) > 0 {
					b.Fatal(err, resp.Diagnostics)
				}
			}
		})
	}
}
