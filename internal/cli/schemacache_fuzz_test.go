package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/validate"
)

// FuzzSchemaCacheEntry reads any bytes as the --schemas cache's entry of a
// file, the one input the cache takes from disk rather than from the
// user's files (a damaged or hostile entry). Properties: nothing panics;
// an entry is refused, or gives documents LoadIndexed loads or refuses.
func FuzzSchemaCacheEntry(f *testing.F) {
	dir := f.TempDir()
	text := []byte(cacheCRD)
	docs := []any{
		map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
			"metadata": map[string]any{"name": "widgets.example.com"},
			"spec": map[string]any{"group": "example.com", "scope": "Namespaced", "names": map[string]any{"kind": "Widget", "plural": "widgets"},
				"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true}}}},
		map[string]any{"apiVersion": "v1", "kind": "ServiceAccount"},
		nil,
	}
	indexedSchemas(dir, text, docs)
	good, err := os.ReadFile(filepath.Join(dir, schemaCacheKey(text)))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte("12\n{\"Docs\":[{}]}x"))
	f.Add([]byte("-1\n"))
	work := f.TempDir() // one per fuzzing process
	f.Fuzz(func(t *testing.T, entry []byte) {
		dir := work
		if err := os.WriteFile(filepath.Join(dir, schemaCacheKey(text)), entry, 0o644); err != nil {
			t.Fatal(err)
		}
		got, ok := cachedSchemas(dir, text)
		if !ok {
			return
		}
		s, err := validate.LoadIndexed(got)
		if err != nil {
			return
		}
		for _, d := range got {
			if d.CRD != nil && len(d.CRD.Served) > 0 && d.CRD.Group != "" && d.CRD.Kind != "" {
				doc := value.NewMap(3)
				doc.Set("apiVersion", d.CRD.Group+"/"+d.CRD.Served[0])
				doc.Set("kind", d.CRD.Kind)
				meta := value.NewMap(1)
				meta.Set("name", "x")
				doc.Set("metadata", meta)
				_, _ = s.Check(doc)
			}
		}
	})
}
