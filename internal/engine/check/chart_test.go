package check_test

import (
	"testing"
	"testing/fstest"
)

// check reads a $chart document's keys as directives, checks the names
// its values use, and finds a misspelt key, as a render would (reference
// §11).
func TestCheck_chartDocument(t *testing.T) {
	files := fstest.MapFS{
		"t.yaml": {Data: []byte(`$let:
  n: 2
$chart: charts/demo
$values:
  replicaCount: {$eval: "${{ m }}"}
$release: {name: web}
$includeCRDs: true
$hooks: false
$skipTests: true
$kubeVersion: v1.31.0
$apiVersions: [example.com/v1]
---
$chart: charts/demo
$valuse: {}
`)},
	}
	want := "t.yaml:5:25: $values.replicaCount.$eval: \"m\" is not declared: no $let, $for or $schema in scope and no values file (-f) declares it; did you mean 'n'?\n" +
		"t.yaml:14:1: $valuse: unknown directive $valuse: did you mean $values? To output a key $valuse as data, write $$valuse\n"
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
