package engine

import (
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
	benchStreams(b, n, []namedSource{{"without", stream}, {"every_field", with}})
}
