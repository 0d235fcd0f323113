package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/emit"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// fuzzChart is a small chart beside the fuzzed template: a subchart, a
// CRD, a hook, a test hook, a values schema and a required value.
var fuzzChart = map[string]string{
	"fz/Chart.yaml":  "apiVersion: v2\nname: fz\nversion: 0.1.0\ndependencies:\n  - {name: sub, version: 0.1.0, condition: sub.enabled}\n",
	"fz/values.yaml": "n: 1\nname: x\nsub: {enabled: true}\nlist: [a, b]\n",
	"fz/values.schema.json": `{"type": "object", "properties": {"n": {"type": "integer", "maximum": 100},
		"name": {"type": "string", "pattern": "^[a-z]+$"}}}`,
	"fz/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-{{ required \"name\" .Values.name }}\n" +
		"  namespace: {{ .Release.Namespace }}\ndata:\n  n: {{ .Values.n | quote }}\n  list: {{ .Values.list | toJson | quote }}\n" +
		"  kube: {{ .Capabilities.KubeVersion.Version }}\n  w: {{ .Capabilities.APIVersions.Has \"example.com/v1\" | quote }}\n",
	"fz/templates/loop.yaml":           "{{ range $i := until (int .Values.n) }}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: s{{ $i }}}\n{{ end }}\n",
	"fz/templates/hook.yaml":           "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: hook\n  annotations: {helm.sh/hook: pre-install}\n",
	"fz/templates/test.yaml":           "apiVersion: v1\nkind: Pod\nmetadata:\n  name: t\n  annotations: {helm.sh/hook: test}\n",
	"fz/crds/w.yaml":                   "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: ws.example.com}\n",
	"fz/charts/sub/Chart.yaml":         "apiVersion: v2\nname: sub\nversion: 0.1.0\n",
	"fz/charts/sub/templates/sub.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: sub}\n",
}

// fuzzChartSecret is a variable's value that must never show in an
// error (reference §6).
const fuzzChartSecret = "Sup3r-S3cret"

// FuzzChartDocument renders any $chart document (reference §11) over a
// small chart, with a variable holding a secret. Properties: the engine
// never panics or hangs; an error is an *Error positioned in the
// template and never shows the secret; a success encodes as YAML and JSON
// and renders again to the same bytes.
func FuzzChartDocument(f *testing.F) {
	for _, s := range []string{
		"$chart: fz\n",
		"$chart: fz\n$values: {n: 3, name: abc}\n$release: {name: r, namespace: ns}\n",
		"$chart: fz\n$includeCRDs: true\n$hooks: false\n$skipTests: false\n",
		"$chart: fz\n$kubeVersion: v1.30.1\n$apiVersions: [example.com/v1]\n",
		"$let: {s: secret}\n$chart: fz\n$values: {name: {$eval: '${{ s }}'}}\n",
		"$chart: fz\n$values: {n: {$eval: '${{ secret }}'}}\n",
		"$if: \"false\"\n$chart: fz\n",
		"$chart: fz\n$values: {sub: {enabled: false}, name: null}\n",
		"$chart: {repository: 'oci://r/c', name: fz, version: 1.2.3}\n",
		"$chart: fz\nvalues: {}\n",
		"$chart: fz\n$values: [1]\n",
		"$chart: fz\n$release: {nmae: x}\n", //nolint:misspell // a misspelt key is the input
		"$chart: fz\n---\n$transform: {namespace: edge}\n",
		"$chart: fz\n---\n$overlay: doc.kind == 'Secret'\n$remove: true\n",
	} {
		f.Add([]byte(s))
	}
	fsys := fstest.MapFS{}
	for name, text := range fuzzChart {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	opts := fuzzOptions()
	opts.Loader = FSLoader{FS: fsys}
	e := New(opts)
	vars := map[string]value.Value{"secret": fuzzChartSecret}
	f.Fuzz(func(t *testing.T, doc []byte) {
		watchdog := time.AfterFunc(fuzzHangGuard, func() {
			panic(fmt.Sprintf("render still running after %v: %q", fuzzHangGuard, doc))
		})
		defer watchdog.Stop()
		ctx := context.Background()
		src := Source{Name: "template.yaml", Text: doc}
		docs, err := e.Render(ctx, src, vars)
		if err != nil {
			var ee *Error
			if !errors.As(err, &ee) {
				t.Fatalf("error is %T, want *Error: %v", err, err)
			}
			files := map[string][]byte{"template.yaml": doc}
			for name, text := range fuzzChart {
				files[name] = []byte(text)
			}
			checkErrorPosition(t, ee, files)
			if strings.Contains(ee.Error(), fuzzChartSecret) && !bytes.Contains(doc, []byte(fuzzChartSecret)) {
				t.Fatalf("error shows a variable's value: %v", ee)
			}
			return
		}
		out, err := emit.EncodeYAMLStream(docs)
		if err != nil {
			t.Fatalf("rendered but cannot encode: %v", err)
		}
		if err := encodesAsJSON(docs); err != nil {
			t.Fatalf("rendered but cannot encode as JSON: %v", err)
		}
		again, err := e.Render(ctx, src, vars)
		if err != nil {
			t.Fatalf("second render failed after a success: %v", err)
		}
		if out2, _ := emit.EncodeYAMLStream(again); !bytes.Equal(out, out2) {
			t.Fatalf("second render differs:\n--- first:\n%s--- again:\n%s", out, out2)
		}
	})
}
