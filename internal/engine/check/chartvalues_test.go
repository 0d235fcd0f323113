package check_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"go.yaml.in/yaml/v3"
	helmcommon "helm.sh/helm/v4/pkg/chart/common"
	helmutil "helm.sh/helm/v4/pkg/chart/common/util"
	"helm.sh/helm/v4/pkg/chart/loader/archive"
	helmloader "helm.sh/helm/v4/pkg/chart/v2/loader"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/chart"
)

// chartFiles is a small chart as a local chart directory holds it: a
// values.yaml with nested and free-form mappings, a values.schema.json
// that opens one mapping to any key and closes another, and a subchart
// under an alias.
func chartFiles(dir string) fstest.MapFS {
	return fstest.MapFS{
		dir + "/Chart.yaml": {Data: []byte(`apiVersion: v2
name: app
version: 0.1.0
dependencies:
  - name: sub
    version: 0.1.0
    alias: db
`)},
		dir + "/values.yaml": {Data: []byte(`replicaCount: 1
crds:
  enabled: false
  keep: true
image:
  repository: example.com/app
  tag: ""
podAnnotations: {}
`)},
		dir + "/values.schema.json": {Data: []byte(`{
  "type": "object",
  "properties": {
    "replicaCount": {"type": "integer"},
    "image": {"$ref": "#/definitions/image"},
    "extraEnv": {"type": "object", "additionalProperties": {"type": "string"}},
    "strict": {"type": "object", "properties": {"on": {"type": "boolean"}}, "additionalProperties": false}
  },
  "definitions": {
    "image": {"type": "object", "properties": {"repository": {"type": "string"}, "tag": {"type": "string"}}}
  }
}
`)},
		dir + "/templates/cm.yaml":           {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\n")},
		dir + "/charts/sub/Chart.yaml":       {Data: []byte("apiVersion: v2\nname: sub\nversion: 0.1.0\n")},
		dir + "/charts/sub/values.yaml":      {Data: []byte("port: 5432\nauth: {user: app}\n")},
		dir + "/charts/sub/templates/x.yaml": {Data: []byte("")},
	}
}

// A key of $values that the chart's values.yaml does not have, where no
// values.schema.json allows it, is a warning with "did you mean", at the
// key, nested keys and a subchart's keys too (reference §11 `$chart`):
// Helm merges such a key and ignores it. Where the schema closes a
// mapping (additionalProperties: false) the warning says Helm refuses it. A key the schema declares, one
// under a mapping the schema opens or values.yaml leaves empty, global
// and a subchart's alias are known.
func TestCheck_warnsAboutValuesTheChartDoesNotHave(t *testing.T) {
	files := chartFiles("charts/app")
	files["t.yaml"] = &fstest.MapFile{Data: []byte(`$chart: charts/app
$values:
  replicaCont: 2
  crds: {enabeld: true, keep: false}
  image: {repository: example.com/fork, tagg: v1}
  podAnnotations: {anything: goes}
  extraEnv: {ANY: thing}
  global: {imageRegistry: example.com}
  db:
    port: 5433
    auth: {usr: x}
    prot: 1
  strict: {on: true, of: false}
  $$dollar: 1
`)}
	want := `warning t.yaml:3:3: $values.replicaCont: the chart's values.yaml has no key replicaCont: Helm ignores it without a word; did you mean replicaCount?
warning t.yaml:4:10: $values.crds.enabeld: the chart's values.yaml has no key crds.enabeld: Helm ignores it without a word; did you mean enabled?
warning t.yaml:5:41: $values.image.tagg: the chart's values.yaml has no key image.tagg: Helm ignores it without a word; did you mean tag?
warning t.yaml:11:12: $values.db.auth.usr: the chart's values.yaml has no key db.auth.usr: Helm ignores it without a word; did you mean user?
warning t.yaml:12:5: $values.db.prot: the chart's values.yaml has no key db.prot: Helm ignores it without a word; did you mean port?
warning t.yaml:13:22: $values.strict.of: the chart's values.yaml has no key strict.of and its values.schema.json allows no other key: Helm refuses it; did you mean on?
warning t.yaml:14:3: $values.$$dollar: the chart's values.yaml has no key $dollar: Helm ignores it without a word
`
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// Where the chart has a values.schema.json, a value of $values whose type
// the schema refuses is a warning at the value that says Helm refuses it
// (reference §11 `$chart`); a render, when check runs one, then stops
// with Helm's own error at $values. An $eval of one expression
// whose type check knows is checked too; a null removes the key and is
// never a mismatch.
func TestCheck_typeChecksValuesAgainstTheChartSchema(t *testing.T) {
	files := chartFiles("charts/app")
	files["t.yaml"] = &fstest.MapFile{Data: []byte(`$let:
  n: "3"
  tag: "'v1'"
$chart: charts/app
$values:
  replicaCount: "two"
  image:
    repository: [a]
    tag: {$eval: "${{ n }}"}
  extraEnv: {A: 1}
  strict: {on: null}
---
$let: {n: "3"}
$chart: charts/app
$values:
  replicaCount: {$eval: "${{ n }}"}
  image: {tag: {$eval: "v${{ n }}"}}
`)}
	want := `warning t.yaml:6:17: $values.replicaCount: the chart's values.schema.json wants integer for replicaCount, and the template gives a string: Helm refuses it
warning t.yaml:8:17: $values.image.repository: the chart's values.schema.json wants string for image.repository, and the template gives an array: Helm refuses it
warning t.yaml:9:10: $values.image.tag: the chart's values.schema.json wants string for image.tag, and the template gives an integer: Helm refuses it
warning t.yaml:10:17: $values.extraEnv.A: the chart's values.schema.json wants string for extraEnv.A, and the template gives an integer: Helm refuses it
`
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// Helm's own values handling is the oracle for what check says of
// $values (reference §11 `$chart`): a key or a value about which check
// warns that Helm refuses it, Helm refuses (its coalescing and
// values.schema.json validation, as `helm template` runs them); one about
// which it warns that Helm ignores it, Helm accepts; one check passes,
// Helm accepts.
func TestCheck_valuesVerdictsAgreeWithHelm(t *testing.T) {
	for _, c := range []struct{ values, verdict string }{
		{"replicaCont: 2", "ignored"},
		{"crds: {enabeld: true}", "ignored"},
		{"db: {prot: 1}", "ignored"},
		{"db: {auth: {usr: x}}", "ignored"},
		{"strict: {of: false}", "refused"},
		{"replicaCount: \"two\"", "refused"},
		{"replicaCount: 2.5", "refused"},
		{"image: {repository: [a]}", "refused"},
		{"extraEnv: {A: 1}", "refused"},
		{"extraEnv: {A: \"1\"}", ""},
		{"replicaCount: null", ""},
		{"podAnnotations: {x: y}", ""},
		{"global: {anything: 1}", ""},
		{"strict: {on: true}", ""},
		{"db: {port: 5433}", ""},
	} {
		files := chartFiles("c")
		files["t.yaml"] = &fstest.MapFile{Data: []byte("$chart: c\n$values:\n  " + c.values + "\n")}
		got := ""
		for _, l := range strings.SplitAfter(checkReport(t, files), "\n") {
			switch {
			case strings.HasPrefix(l, "warning ") && strings.Contains(l, ": Helm refuses it"):
				got = "refused"
			case strings.HasPrefix(l, "warning ") && strings.Contains(l, ": Helm ignores it without a word"):
				got = "ignored"
			case l != "":
				got = "error: " + l
			}
		}
		if got != c.verdict {
			t.Errorf("%s: check gives %q, want %q", c.values, got, c.verdict)
		}
		var bufs []*archive.BufferedFile
		for name, f := range files {
			if rest, ok := strings.CutPrefix(name, "c/"); ok {
				bufs = append(bufs, &archive.BufferedFile{Name: rest, Data: f.Data})
			}
		}
		ch, err := helmloader.LoadFiles(bufs)
		if err != nil {
			t.Fatal(err)
		}
		var vals map[string]any
		if err := yaml.Unmarshal([]byte(c.values), &vals); err != nil {
			t.Fatal(err)
		}
		_, herr := helmutil.ToRenderValues(ch, vals, helmcommon.ReleaseOptions{Name: "r", Namespace: "default"}, nil)
		if refused := herr != nil; refused != (c.verdict == "refused") {
			t.Errorf("%s: check gives %q, Helm's values error is %v", c.values, got, herr)
		}
	}
}

// A remote chart's $values are checked too, against the chart that the
// engine's FetchChart option gives for it, as the render gets it
// (reference §11 `$chart`); a remote chart with a field check cannot read
// is left to the render.
func TestCheck_warnsAboutValuesOfARemoteChart(t *testing.T) {
	files := chartFiles("cache/app-0.1.0")
	files["t.yaml"] = &fstest.MapFile{Data: []byte(`$chart: {repository: https://charts.example.com, name: app, version: 0.1.0}
$values: {replicaCont: 2}
---
$let: {v: "'0.1.0'"}
$chart: {repository: https://charts.example.com, name: app, version: {$eval: "${{ v }}"}}
$values: {replicaCont: 2}
`)}
	var fetched []string
	e := engine.New(engine.Options{Loader: engine.FSLoader{FS: files}, FetchChart: func(_ context.Context, r chart.Remote) (string, error) {
		fetched = append(fetched, r.Repository+" "+r.Name+" "+r.Version)
		return "cache/" + r.Name + "-" + r.Version, nil
	}})
	src, err := e.LoadFile(context.Background(), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	problems, _ := e.Check(context.Background(), src, nil)
	var b strings.Builder
	for _, p := range problems {
		b.WriteString(p.Err.Pos.String() + ": " + p.Err.Path + ": " + p.Err.Msg + "\n")
	}
	want := "t.yaml:2:11: $values.replicaCont: the chart's values.yaml has no key replicaCont: Helm ignores it without a word; did you mean replicaCount?\n"
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := strings.Join(fetched, ", "); got != "https://charts.example.com app 0.1.0" {
		t.Errorf("check fetched %q", got)
	}
}
