package emit

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"go.yaml.in/yaml/v3"
)

// outBenchServices is a list of n Service-like manifests of about 20 YAML
// lines each: the shape the emitters spend their time on.
func outBenchServices(n int) []value.Value {
	items := make([]value.Value, n)
	for i := range items {
		name := "svc-" + strconv.Itoa(i)
		items[i] = om(
			"apiVersion", "v1",
			"kind", "Service",
			"metadata", om(
				"name", name,
				"namespace", "production",
				"labels", om(
					"app.kubernetes.io/name", name,
					"app.kubernetes.io/part-of", "shop",
					"tier", "backend",
					"ha", i%2 == 0,
				),
				"annotations", om("owner", "team-a@example.com"),
			),
			"spec", om(
				"type", "ClusterIP",
				"ports", list(
					om("name", "http", "port", int64(80), "targetPort", int64(8080+i%10), "protocol", "TCP"),
					om("name", "metrics", "port", int64(9090), "targetPort", int64(9090), "protocol", "TCP"),
				),
				"selector", om("app.kubernetes.io/name", name),
				"sessionAffinity", "None",
			),
		)
	}
	return items
}

// BenchmarkAppendYAML emits 1000 services as one YAML document (a list).
// Compare with BenchmarkYAMLv3Encode, which writes the same bytes.
func BenchmarkAppendYAML(b *testing.B) {
	v := value.Value(outBenchServices(1000))
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendYAML(buf[:0], v); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkYAMLv3Encode is yaml.v3's Encoder on the same value: "nodes"
// encodes a prebuilt yaml.Node tree (the encoder alone); "values" also
// builds the tree from the engine value, as a caller would have to.
func BenchmarkYAMLv3Encode(b *testing.B) {
	v := value.Value(outBenchServices(1000))
	mine, err := AppendYAML(nil, v)
	if err != nil {
		b.Fatal(err)
	}
	encode := func(b *testing.B, buf *bytes.Buffer, n *yaml.Node) {
		buf.Reset()
		enc := yaml.NewEncoder(buf)
		enc.SetIndent(2)
		if err := enc.Encode(n); err != nil {
			b.Fatal(err)
		}
		if err := enc.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("nodes", func(b *testing.B) {
		n := refNode(v)
		var buf bytes.Buffer
		encode(b, &buf, n)
		if !bytes.Equal(buf.Bytes(), mine) {
			b.Fatal("yaml.v3 writes different bytes than AppendYAML")
		}
		b.ReportAllocs()
		b.SetBytes(int64(len(mine)))
		for b.Loop() {
			encode(b, &buf, n)
		}
	})
	b.Run("values", func(b *testing.B) {
		var buf bytes.Buffer
		b.ReportAllocs()
		b.SetBytes(int64(len(mine)))
		for b.Loop() {
			encode(b, &buf, refNode(v))
		}
	})
}

// BenchmarkAppendJSON emits the same value as compact JSON.
func BenchmarkAppendJSON(b *testing.B) {
	v := value.Value(outBenchServices(1000))
	for _, sortKeys := range []bool{false, true} {
		b.Run("sortKeys="+strconv.FormatBool(sortKeys), func(b *testing.B) {
			var buf []byte
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if buf, err = AppendJSON(buf[:0], v, sortKeys); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(len(buf)))
		})
	}
}
