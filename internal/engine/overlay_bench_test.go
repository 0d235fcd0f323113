package engine

import (
	"context"
	"strconv"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
)

// BenchmarkOverlay_stream renders a stream of 1,000 documents without and
// with an overlay that edits every one of them (reference §8). Goal: with
// costs at most 1.5x without, per document; make bench reports the ratio.
func BenchmarkOverlay_stream(b *testing.B) {
	const n = 1000
	stream := benchSource(b, "stream.yaml")
	overlay := benchSource(b, "stream_overlay.yaml")
	with := Source{Name: "stream_with_overlay.yaml", Text: append(append(append([]byte{}, stream.Text...), "\n---\n"...), overlay.Text...)}
	for _, c := range []struct {
		name string
		src  Source
	}{{"without", stream}, {"with", with}} {
		b.Run(c.name+"/N="+strconv.Itoa(n), func(b *testing.B) {
			e, vars := benchEngine(), benchVars(n)
			docs := benchRender(b, e, c.src, vars)
			if len(docs) != n {
				b.Fatalf("%d documents, want %d", len(docs), n)
			}
			m := startMeter(b)
			for b.Loop() {
				if _, err := e.Render(context.Background(), c.src, vars); err != nil {
					b.Fatal(err)
				}
			}
			m.report(n, "document")
		})
	}
}

// BenchmarkMerge_patch merges an object of N keys, each a small mapping,
// onto one of the same keys by the merge rule (reference §9), reported per
// key of over: flat from N=100 to N=10000 when the rule is linear.
func BenchmarkMerge_patch(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			base, over := NewMap(n), NewMap(n)
			for i := range n {
				k := "key" + strconv.Itoa(i)
				base.Set(k, mapOf("a", int64(i), "b", "x"))
				over.Set(k, mapOf("b", "y", "c", true))
			}
			m := startMeter(b)
			for b.Loop() {
				_ = merge.Patch(base, over)
			}
			m.report(n, "key")
		})
	}
}
