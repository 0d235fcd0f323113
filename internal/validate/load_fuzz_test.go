package validate

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// FuzzLoad loads any YAML stream as schemas, the surface `validate`'s
// second argument and `celyaml render --schemas` read. Property: nothing
// panics, the Kubernetes code included; a stream is loaded or refused with
// an error.
func FuzzLoad(f *testing.F) {
	for _, name := range []string{"testdata/widgets.yaml", "testdata/openapi-apps-v1.json"} {
		text, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(text)
	}
	f.Add([]byte("kind: CustomResourceDefinition\napiVersion: apiextensions.k8s.io/v1\nspec: 1\n"))
	f.Add([]byte("openapi: 3.0.0\ncomponents: {schemas: {a: {$ref: '#/components/schemas/a'}}}\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		s, err := Load(decodeAll(text))
		if err != nil {
			return
		}
		// Load reads only each CRD's index: build the kinds of the CRDs
		// it found (at most four, so that a saved OpenAPI document of a
		// whole group-version does not slow every input), as a document
		// of each does, under both requests.
		built := 0
		for gk, versions := range s.kinds {
			if !s.crdGroups[gk.Group] {
				continue
			}
			for v := range versions {
				if built++; built > 4 {
					return
				}
				doc := value.NewMap(3)
				doc.Set("apiVersion", schema.GroupVersion{Group: gk.Group, Version: v}.String())
				doc.Set("kind", gk.Kind)
				meta := value.NewMap(1)
				meta.Set("name", "x")
				doc.Set("metadata", meta)
				_, _ = s.Check(doc)
				_, _ = s.CheckWith(doc, Options{Request: Create})
			}
		}
	})
}

// FuzzCheck checks any YAML stream of documents against the Widget CRD and
// the saved apps/v1 OpenAPI document, built once. Properties: nothing
// panics; a check succeeds or says why; a violation always names its
// document.
func FuzzCheck(f *testing.F) {
	var schemas []value.Value
	for _, name := range []string{"testdata/widgets.yaml", "testdata/openapi-apps-v1.json"} {
		text, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		schemas = append(schemas, decodeAll(text)...)
	}
	s, err := Load(schemas)
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: prod}\nspec: {image: 'a:1', replicas: 2, minReplicas: 3}\n"))
	f.Add([]byte("apiVersion: example.com/v2\nkind: Widget\nmetadata: {name: w}\n"))
	f.Add([]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: -1, extra: 1}\n"))
	// Kinds the given documents leave to the built-in schemas.
	f.Add([]byte("apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {type: Nodeport, ports: [{port: eighty}]}\n"))
	f.Add([]byte("apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec: {schedule: '* * * * *', concurrencyPolicy: Never}\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		for _, d := range decodeAll(text) {
			for _, o := range []Options{{}, {Request: Create}} {
				r, err := s.CheckWith(d, o)
				if err != nil {
					continue
				}
				for _, v := range r.Violations {
					if v.ID == "" {
						t.Fatalf("a violation without a document ID: %s", v)
					}
				}
			}
		}
	})
}

// decodeAll reads the documents of a YAML stream that yaml.v3 reads, up to
// the first it cannot.
func decodeAll(text []byte) []value.Value {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var out []value.Value
	for len(out) < 64 {
		var v any
		if err := dec.Decode(&v); errors.Is(err, io.EOF) || err != nil {
			return out
		}
		out = append(out, toValue(v))
	}
	return out
}

// FuzzApplyPath reads any structured-merge-diff path and key against a
// document, the surface of the field manager's refusals. Properties:
// nothing panics; a key is written with its fields' names and never their
// values.
func FuzzApplyPath(f *testing.F) {
	f.Add(`.spec.ports[port=80,protocol="TCP"].targtPort`, `[name="web",x=1]`)
	f.Add(`.spec.hostnames[="a.example"]`, `[="a.example"]`)
	f.Add(`.a[0].b[k="x\"]y"]`, `[k="x\"]y"]`)
	f.Add(`.metadata.labels.app.kubernetes.io/name`, `[=""]`)
	doc := map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "x", "app.kubernetes.io": map[string]any{}, "app.kubernetes.io/name": "x"}}, "spec": map[string]any{
		"ports":     []any{map[string]any{"port": int64(80)}, map[string]any{"port": int64(443), "protocol": "UDP"}},
		"hostnames": []any{"a.example", "b.example"},
	}}
	f.Fuzz(func(t *testing.T, path, key string) {
		segs := smdSegments(path, doc)
		_ = valueAtSegs(doc, segs)
		_ = fieldPathOf(segs).String()
		k := keyFields(key)
		if strings.Count(k, "=") != strings.Count(k, "=…") {
			t.Fatalf("keyFields(%q) = %q shows a value", key, k)
		}
	})
}
