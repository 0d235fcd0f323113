package check_test

import (
	"testing"
	"testing/fstest"
)

// The $values check reads the compiled $chart document, which check
// compiles with each compile error excised (reference §11 `$chart`): a
// key beside $chart that cannot stand there, a mapping of $values that
// holds an unknown directive and an $eval of no string are reported as
// errors, and the keys around them are still checked against the chart
// as written: a typo beside them warns, a mapping that held an unknown
// directive is not taken for one written key by key, and an $eval that
// does not compile is no mapping given where the chart wants an integer.
func TestCheck_checksValuesAroundWhatDoesNotCompile(t *testing.T) {
	files := chartFiles("charts/app")
	files["t.yaml"] = &fstest.MapFile{Data: []byte(`$chart: charts/app
$values:
  replicaCont: 2
  replicaCount: {$eval: 5}
  crds: {enabeld: true, $bogus: 1}
  image: {tagg: v1}
stray: 1
`)}
	want := `warning t.yaml:3:3: $values.replicaCont: the chart's values.yaml has no key replicaCont: Helm ignores it without a word; did you mean replicaCount?
t.yaml:4:25: $values.replicaCount.$eval: $eval takes a string with ${{ }} expressions, got an int
t.yaml:5:25: $values.crds.$bogus: unknown directive $bogus: keys that start with $ are directives; write $$bogus to output a key $bogus
warning t.yaml:6:11: $values.image.tagg: the chart's values.yaml has no key image.tagg: Helm ignores it without a word; did you mean tag?
t.yaml:7:1: stray: a $chart document holds only $-keys: $chart, $values, $release, $kubeVersion, $apiVersions, $includeCRDs, $hooks, $skipTests; "stray" is not one: a chart's values go under $values
`
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
