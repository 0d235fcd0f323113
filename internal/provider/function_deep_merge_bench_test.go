package provider

import (
	"context"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// BenchmarkDeepMerge_server calls deep_merge through the provider server
// on two objects of N keys, each value a small object, reported per key.
func BenchmarkDeepMerge_server(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			mk := func(extra string) tftypes.Value {
				attrs := map[string]tftypes.Value{}
				types := map[string]tftypes.Type{}
				for i := range n {
					k := "key" + strconv.Itoa(i)
					o := tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.Number, extra: tftypes.String}},
						map[string]tftypes.Value{"a": tftypes.NewValue(tftypes.Number, i), extra: tftypes.NewValue(tftypes.String, "x")})
					attrs[k], types[k] = o, o.Type()
				}
				return tftypes.NewValue(tftypes.Object{AttributeTypes: types}, attrs)
			}
			base, over := mk("b"), mk("c")
			var dvs []*tfprotov6.DynamicValue
			for _, a := range []tftypes.Value{base, over} {
				dv, err := tfprotov6.NewDynamicValue(tftypes.DynamicPseudoType, a)
				if err != nil {
					b.Fatal(err)
				}
				dvs = append(dvs, &dv)
			}
			srv := NewServer("test")()
			b.ResetTimer()
			for b.Loop() {
				resp, err := srv.CallFunction(context.Background(), &tfprotov6.CallFunctionRequest{Name: "deep_merge", Arguments: dvs})
				if err != nil || resp.Error != nil {
					b.Fatal(err, resp.Error)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
		})
	}
}
