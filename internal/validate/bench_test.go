package validate

import (
	"os"
	"testing"

	"k8s.io/client-go/openapi/openapitest"

	"github.com/celyaml/terraform-provider-celyaml/internal/validate/builtin"
)

// BenchmarkLoad builds the validators of the Widget CRD: conversion, the
// API server's CRD validation with its rules' cost estimates, and the CEL
// compilation of every rule.
func BenchmarkLoad(b *testing.B) {
	src, err := os.ReadFile("testdata/widgets.yaml")
	if err != nil {
		b.Fatal(err)
	}
	docs := fromYAML(&testing.T{}, string(src))
	for b.Loop() {
		if _, err := Load(docs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck checks one valid Widget that every rule reads.
func BenchmarkCheck(b *testing.B) {
	src, err := os.ReadFile("testdata/widgets.yaml")
	if err != nil {
		b.Fatal(err)
	}
	t := &testing.T{}
	s, err := Load(fromYAML(t, string(src)))
	if err != nil {
		b.Fatal(err)
	}
	doc := fromYAML(t, widgetHead+"spec: {maxDesired: 3, minReplicas: 1, values: [1, 2], tags: [a, b], baseTags: [b, a], components: {Widget: {priority: 1}}, escaped: {namespace: 1, x-prop: 1, redact__d: 1}, listChecks: {tagsEqualBase: true, unionSize: 2}}")[0]
	for b.Loop() {
		r, err := s.Check(doc)
		if err != nil || len(r.Violations) > 0 {
			b.Fatal(err, r.Violations)
		}
	}
}

// savedOpenAPIFiles reads client-go's copies of the apps/v1 and core/v1
// /openapi/v3 documents (2.4 MB of JSON).
func savedOpenAPIFiles(b *testing.B) [][]byte {
	paths, err := openapitest.NewEmbeddedFileClient().Paths()
	if err != nil {
		b.Fatal(err)
	}
	var raws [][]byte
	for _, p := range []string{"apis/apps/v1", "api/v1"} {
		raw, err := paths[p].Schema("application/json")
		if err != nil {
			b.Fatal(err)
		}
		raws = append(raws, raw)
	}
	return raws
}

const benchDeployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: prod}\nspec: {replicas: 2, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx, ports: [{containerPort: 80}]}]}}}"

// BenchmarkStart_savedOpenAPI is what one `celyaml render --schemas` of a
// Deployment spends on validation, from the saved apps/v1 and core/v1
// documents: decoding them, indexing their kinds, building the one
// validator the Deployment needs, and checking it. The steps apart:
// decode, decode_and_load, and check_built (every later document of the
// kind, in the same process).
func BenchmarkStart_savedOpenAPI(b *testing.B) {
	raws := savedOpenAPIFiles(b)
	doc := fromYAML(&testing.T{}, benchDeployment)[0]
	decode := func() []any {
		var docs []any
		for _, raw := range raws {
			d, err := DecodeJSON(raw)
			if err != nil {
				b.Fatal(err)
			}
			docs = append(docs, d)
		}
		return docs
	}
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			decode()
		}
	})
	b.Run("decode_and_load", func(b *testing.B) {
		for b.Loop() {
			if _, err := LoadPlain(decode()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("first_check", func(b *testing.B) {
		for b.Loop() {
			s, err := LoadPlain(decode())
			if err != nil {
				b.Fatal(err)
			}
			if r, err := s.Check(doc); err != nil || !r.Checked || len(r.Violations) > 0 {
				b.Fatal(err, r)
			}
		}
	})
	b.Run("check_built", func(b *testing.B) {
		s, err := LoadPlain(decode())
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if r, err := s.Check(doc); err != nil || !r.Checked || len(r.Violations) > 0 {
				b.Fatal(err, r)
			}
		}
	})
}

// BenchmarkStart_builtins is what one `celyaml render --schemas` of a
// Deployment with no saved document spends on validation: reading the
// built-in kinds' index from the embedded bundle, building the
// Deployment's validator from its schemas, and checking it.
func BenchmarkStart_builtins(b *testing.B) {
	name, gz := builtin.Bundle()
	if gz == nil {
		b.Fatal("this build carries no built-in schemas: internal/validate/builtin/data/ lost its committed bundle; `make builtin-schemas` writes it")
	}
	doc := fromYAML(&testing.T{}, benchDeployment)[0]
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			if err := (&builtinSet{name: name, gz: gz}).index(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("first_check", func(b *testing.B) {
		for b.Loop() {
			s, err := loadPlain(nil, &builtinSet{name: name, gz: gz})
			if err != nil {
				b.Fatal(err)
			}
			if r, err := s.Check(doc); err != nil || !r.Checked || len(r.Violations) > 0 {
				b.Fatal(err, r)
			}
		}
	})
}
