package validate

import (
	"os"
	"testing"
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
