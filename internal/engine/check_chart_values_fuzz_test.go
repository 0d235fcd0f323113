package engine

import (
	"context"
	"fmt"
	"testing"
	"testing/fstest"
	"time"
)

// FuzzCheckChartValues holds check's $values check (reference §11
// `$chart`) to check's promise whatever the chart says and whatever
// $values holds: it ends, never panics, and positions every problem.
// The three inputs are the template's $values mapping, the chart's
// values.yaml and its values.schema.json.
func FuzzCheckChartValues(f *testing.F) {
	f.Add([]byte("replicaCont: 2\ncrds: {enabeld: true}\ndb: {prot: 1}\n"), []byte("replicaCount: 1\ncrds: {enabled: false}\n"),
		[]byte(`{"type": "object", "properties": {"replicaCount": {"type": "integer"}}}`))
	f.Add([]byte("a: {b: {c: [1, {d: 2}]}}\n$$e: 1\nglobal: {x: 1}\n"), []byte("a: {b: {c: []}}\n"),
		[]byte(`{"properties": {"a": {"$ref": "#/definitions/a"}}, "definitions": {"a": {"$ref": "#/definitions/a"}}}`))
	f.Add([]byte("x: {$eval: \"${{ n }}\"}\ny: {$if: \"true\", $then: 1}\n"), []byte("x: \"\"\ny: {}\n"),
		[]byte(`{"properties": {"x": {"type": ["string", "null"]}, "y": {"additionalProperties": false}}, "patternProperties": {"^z": {}}}`))
	f.Add([]byte("x: &a {y: *a}\n"), []byte("x: {y: 1}\n"), []byte(`not json`))
	f.Fuzz(func(t *testing.T, values, chartValues, schema []byte) {
		watchdog := time.AfterFunc(fuzzHangGuard, func() {
			panic(fmt.Sprintf("check still running after %v: $values %q, values.yaml %q, schema %q", fuzzHangGuard, values, chartValues, schema))
		})
		defer watchdog.Stop()
		files := valuesFuzzChart()
		files["c/values.yaml"] = &fstest.MapFile{Data: chartValues}
		files["c/values.schema.json"] = &fstest.MapFile{Data: schema}
		indented := []byte("$let: {n: \"3\"}\n$chart: c\n$values:\n")
		for _, line := range splitLines(values) {
			indented = append(append(append(indented, "  "...), line...), '\n')
		}
		files["t.yaml"] = &fstest.MapFile{Data: indented}
		e := New(Options{Loader: FSLoader{FS: files}})
		src, err := e.LoadFile(context.Background(), "t.yaml")
		if err != nil {
			t.Fatal(err)
		}
		problems, _ := e.Check(context.Background(), src, nil)
		for _, p := range problems {
			if p.Err == nil || p.Err.Pos.Line < 1 || p.Err.Pos.Column < 1 {
				t.Fatalf("problem without a position: %+v", p)
			}
		}
	})
}

func splitLines(b []byte) [][]byte {
	var out [][]byte
	start := 0
	for i, c := range b {
		if c == '\n' {
			out = append(out, b[start:i])
			start = i + 1
		}
	}
	return append(out, b[start:])
}

// valuesFuzzChart is a chart with a subchart under an alias, for the fuzzer
// to replace its values.yaml and values.schema.json.
func valuesFuzzChart() fstest.MapFS {
	return fstest.MapFS{
		"c/Chart.yaml":                  {Data: []byte("apiVersion: v2\nname: app\nversion: 0.1.0\ndependencies:\n  - {name: sub, version: 0.1.0, alias: db}\n")},
		"c/templates/cm.yaml":           {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\n")},
		"c/charts/sub/Chart.yaml":       {Data: []byte("apiVersion: v2\nname: sub\nversion: 0.1.0\n")},
		"c/charts/sub/values.yaml":      {Data: []byte("port: 5432\nauth: {user: app}\n")},
		"c/charts/sub/templates/x.yaml": {Data: []byte("")},
	}
}
