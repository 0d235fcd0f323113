package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// benchContextPartlyUnknown is benchContext with region unknown, as at
// plan when it comes from a resource that the apply creates.
func benchContextPartlyUnknown(tb testing.TB) tftypes.Value {
	tb.Helper()
	c := benchContext()
	var attrs map[string]tftypes.Value
	if err := c.As(&attrs); err != nil {
		tb.Fatal(err)
	}
	attrs["region"] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	return tftypes.NewValue(c.Type(), attrs)
}

// BenchmarkPlanCheck measures the check at plan on the kitchen sink with
// the 20-service context, one value of it unknown, against the partial
// render alone (engine_partial_render): the check itself, as the first
// call of a template pays it (check_uncached), and as every later call
// with the same template and names pays it (check_cached); then whole
// render_file calls on the protocol, with the context partly unknown
// (render, cached check) and wholly known (no check).
func BenchmarkPlanCheck(b *testing.B) {
	ctx := context.Background()
	e := engine.New(engine.DefaultOptions())
	partly := benchContextPartlyUnknown(b)
	vars, _, err := contextVars(partly)
	if err != nil || !partlyUnknown(vars) {
		b.Fatal("the context is not partly unknown", err)
	}
	src, err := e.LoadFile(ctx, kitchenSinkPath)
	if err != nil {
		b.Fatal(err)
	}
	declared := func(name string) bool { _, ok := vars[name]; return ok }
	b.Run("engine_partial_render", func(b *testing.B) {
		for b.Loop() {
			if _, err := e.RenderFile(ctx, kitchenSinkPath, vars); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("check_uncached", func(b *testing.B) {
		for b.Loop() {
			if ps, _ := e.Check(ctx, src, declared); len(ps) != 0 {
				b.Fatal(ps)
			}
		}
	})
	b.Run("check_cached", func(b *testing.B) {
		for b.Loop() {
			if errs := planCheckErrors(ctx, e, src, vars); len(errs) != 0 {
				b.Fatal(errs)
			}
		}
	})
	srv := NewServer("test")()
	for _, c := range []struct {
		name string
		ctx  tftypes.Value
	}{
		{"call_partly_unknown", partly},
		{"call_known", benchContext()},
	} {
		req := callRequest(b, "render_file", tftypes.NewValue(tftypes.String, kitchenSinkPath), c.ctx)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				resp, err := srv.CallFunction(ctx, req)
				if err != nil || resp.Error != nil {
					b.Fatal(err, resp.Error)
				}
			}
		})
	}
}
