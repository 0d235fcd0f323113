package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/validate"
)

const cacheCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, maximum: 10}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: widget-controller}
`

func checkWidget(t *testing.T, in *inputs, file string) string {
	t.Helper()
	s, err := in.loadSchemas([]string{file})
	if err != nil {
		t.Fatal(err)
	}
	docs, err := engine.New(engine.DefaultOptions()).RenderDocuments(context.Background(),
		engine.Source{Text: []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: prod}\nspec: {replicas: 20}\n")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.scopes["example.com/Widget"] != true {
		t.Errorf("the Widget's scope is not known: %v", s.scopes)
	}
	err = in.checkSchemas(s, docs, validate.Options{})
	if err == nil {
		t.Fatal("the Widget passed")
	}
	return err.Error()
}

// A schema file read once is read from the cache after: the same
// verdict, from an entry named by the content's hash.
func TestSchemaCache_givesWhatTheFileGives(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("CELYAML_CACHE", cache)
	file := filepath.Join(t.TempDir(), "crds.yaml")
	if err := os.WriteFile(file, []byte(cacheCRD), 0o644); err != nil {
		t.Fatal(err)
	}
	in := &inputs{ctx: context.Background()}
	want := "the API server would refuse these documents (1 violation):\nexample.com/Widget/prod/w: spec.replicas: Invalid value: spec.replicas in body should be less than or equal to 10"
	if got := checkWidget(t, in, file); got != want {
		t.Fatalf("first read:\n%s\nwant\n%s", got, want)
	}
	entry := filepath.Join(cache, "schemas", schemaCacheKey([]byte(cacheCRD)))
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("no cache entry: %v", err)
	}
	if _, ok := cachedSchemas(filepath.Join(cache, "schemas"), []byte(cacheCRD)); !ok {
		t.Fatal("the entry cannot be read back")
	}
	if got := checkWidget(t, in, file); got != want {
		t.Errorf("from the cache:\n%s\nwant\n%s", got, want)
	}
	// An entry cut short is read again from the file.
	raw, _ := os.ReadFile(entry)
	if err := os.WriteFile(entry, raw[:len(raw)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := cachedSchemas(filepath.Join(cache, "schemas"), []byte(cacheCRD)); ok {
		t.Fatal("a truncated entry was taken")
	}
	if got := checkWidget(t, in, file); got != want {
		t.Errorf("after a truncated entry:\n%s\nwant\n%s", got, want)
	}
	// Another content is another entry.
	if schemaCacheKey([]byte(cacheCRD)) == schemaCacheKey([]byte(strings.Replace(cacheCRD, "10", "11", 1))) {
		t.Error("two contents share a key")
	}
}

// Processes that race write whole entries: every reader sees one.
func TestSchemaCache_racingWritersLeaveAWholeEntry(t *testing.T) {
	dir := t.TempDir()
	docs := []any{map[string]any{"apiVersion": "v1", "kind": "ServiceAccount"}}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			indexedSchemas(dir, []byte(cacheCRD), docs)
			if _, ok := cachedSchemas(dir, []byte(cacheCRD)); !ok {
				t.Error("a reader saw no whole entry after its own write")
			}
		}()
	}
	wg.Wait()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the cache folder holds %v; want one entry and no temporary file", names)
	}
}
