package engine

import (
	"context"
	"strconv"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// BenchmarkOverlay_stream renders a stream of 1,000 documents without an
// overlay, with one that adds a label to every document (labels), and with
// one that makes five edits in every document, a list edit among them
// (with). Goal: an overlay costs at most 1.5x the stream without it, per
// document; make bench reports both ratios.
func BenchmarkOverlay_stream(b *testing.B) {
	const n = 1000
	stream := benchSource(b, "stream.yaml")
	withOverlay := func(name string) Source {
		o := benchSource(b, name)
		return Source{Name: "stream_with_" + name, Text: append(append(append([]byte{}, stream.Text...), "\n---\n"...), o.Text...)}
	}
	benchStreams(b, n, []namedSource{{"without", stream}, {"labels", withOverlay("stream_overlay_labels.yaml")}, {"with", withOverlay("stream_overlay.yaml")}})
}

type namedSource struct {
	name string
	src  Source
}

// benchStreams runs each stream of n documents as a sub-benchmark named
// after it and N, reported per document.
func benchStreams(b *testing.B, n int, cases []namedSource) {
	for _, c := range cases {
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
			base, over := value.NewMap(n), value.NewMap(n)
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
