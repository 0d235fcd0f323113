package engine

import (
	"context"
	"strconv"
	"testing"
)

// BenchmarkTransform_stream renders the 1,000-document stream of
// BenchmarkOverlay_stream without a transform and with one that uses every
// field (reference §10), reported per document: what a transform costs
// beside rendering.
func BenchmarkTransform_stream(b *testing.B) {
	const n = 1000
	stream := benchSource(b, "stream.yaml")
	t := benchSource(b, "stream_transform.yaml")
	with := Source{Name: "stream_with_transform", Text: append(append(append([]byte{}, stream.Text...), "\n---\n"...), t.Text...)}
	for _, c := range []struct {
		name string
		src  Source
	}{{"without", stream}, {"every_field", with}} {
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
