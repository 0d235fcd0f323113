package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/testcrds"
	"github.com/celyaml/terraform-provider-celyaml/internal/validate"
)

const benchGateway = "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: web, namespace: prod}\nspec:\n  gatewayClassName: example\n  listeners:\n  - {name: http, protocol: HTTP, port: 80}\n"

// BenchmarkSchemas_releasedCRDs is what `celyaml render --schemas` spends
// on validation with the released CRDs of internal/testcrds (74 files of
// seven projects, from their module zips): reading and indexing them, then
// checking one Gateway (one_manifest, the cache warm; first_run, cold);
// and 300 documents of mixed kinds in one call (mixed_300: every CRD's
// validators built).
func BenchmarkSchemas_releasedCRDs(b *testing.B) {
	files, err := testcrds.CRDFiles()
	if err != nil {
		b.Fatal(err)
	}
	in := &inputs{ctx: context.Background()}
	eng := engine.New(engine.DefaultOptions())
	docs, err := eng.RenderDocuments(context.Background(), engine.Source{Text: []byte(benchGateway)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Setenv("CELYAML_CACHE", b.TempDir())
	b.Run("first_run", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			b.Setenv("CELYAML_CACHE", b.TempDir()) // a cold cache each time
			b.StartTimer()
			s, err := in.loadSchemas(files)
			if err != nil {
				b.Fatal(err)
			}
			if err := in.checkSchemas(s, docs, validate.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("one_manifest", func(b *testing.B) {
		for b.Loop() {
			s, err := in.loadSchemas(files)
			if err != nil {
				b.Fatal(err)
			}
			if err := in.checkSchemas(s, docs, validate.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	var mixed []value.Value
	kinds := releasedKinds(b, files)
	for i := 0; i < 300; i++ {
		k := kinds[i%len(kinds)]
		m := value.NewMap(3)
		m.Set("apiVersion", k.Group+"/"+k.Served[0])
		m.Set("kind", k.Kind)
		meta := value.NewMap(2)
		meta.Set("name", "doc")
		meta.Set("namespace", "prod")
		m.Set("metadata", meta)
		mixed = append(mixed, m)
	}
	b.Run("mixed_300", func(b *testing.B) {
		for b.Loop() {
			s, err := in.loadSchemas(files)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.CheckAll(mixed); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// releasedKinds lists the CRDs of the files, as validate indexes them.
func releasedKinds(b *testing.B, files []string) []validate.CRDIndex {
	var out []validate.CRDIndex
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(text))
		for {
			var v any
			if err := dec.Decode(&v); err == io.EOF {
				break
			} else if err != nil {
				b.Fatalf("%s: %v", f, err)
			}
			if ix, ok := validate.IndexOf(v); ok && len(ix.Served) > 0 {
				out = append(out, ix)
			}
		}
	}
	if len(out) < 74 {
		b.Fatalf("%d CRDs in the released files; want at least 74", len(out))
	}
	return out
}
