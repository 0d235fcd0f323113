package engine

// Fuzz targets: the engine never panics or hangs, whatever the input. Run one for a while with e.g.
//
//	go test ./internal/engine -run '^$' -fuzz '^FuzzRender$' -fuzztime 60s
//
// Crashers that the fuzzer finds are written to testdata/fuzz/<Target>/
// and then run as ordinary regression cases by go test.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/emit"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// fuzzSeed is a template and its variables from the corpora.
type fuzzSeed struct {
	template []byte
	vars     []byte
}

// fuzzSeedTemplates returns the template and vars.json of every golden and
// hostile case that keeps its template in the archive.
func fuzzSeedTemplates(t testing.TB) []fuzzSeed {
	var seeds []fuzzSeed
	for _, dir := range []string{goldenDir, hostileDir} {
		for _, c := range loadTxtarCases(t, dir) {
			tpl, ok := c.section("template.yaml")
			if !ok {
				continue
			}
			vars, _ := c.section("vars.json")
			seeds = append(seeds, fuzzSeed{template: tpl, vars: vars})
		}
	}
	return seeds
}

// fuzzIncludes are files a fuzzed template may $include.
var fuzzIncludes = map[string]string{
	"common/labels.yaml": "app: ${{ name }}\nteam: sre\n",
	"common/eval.yaml":   "$eval: \"${{ [1, 2] }}\"\n",
	"common/stream.yaml": "a: 1\n---\nb: 2\n",
	"common/loop.yaml":   "$include: ../template.yaml\n",
	"common/bad.yaml":    "a: [1\n",
	"common/bundle.yaml": fuzzBundle,
}

// fuzzBundle is what FuzzOverlay's overlays edit: plain documents whose
// values the compiled template shares with every render.
const fuzzBundle = `kind: Deployment
metadata: {name: web, namespace: shop, labels: {app: web}}
spec:
  replicas: 1
  containers:
    - {name: app, image: app:1, ports: [{containerPort: 80}]}
    - {name: proxy, image: proxy:1}
---
kind: Service
metadata: {name: web}
spec: {ports: [{port: 80}]}
---
- a list document
---
just text
`

// fuzzHangGuard is how long one fuzzed input may run before it counts as a
// hang.
const fuzzHangGuard = 10 * time.Second

// fuzzOptions keeps each fuzzed render small and fast.
func fuzzOptions() Options {
	fsys := fstest.MapFS{}
	for name, text := range fuzzIncludes {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return Options{
		Loader:               FSLoader{FS: fsys},
		MaxCostPerExpression: 100_000,
		MaxCostPerRender:     1_000_000,
		MaxIncludeDepth:      8,
		MaxNodes:             20_000,
		MaxIterations:        20_000,
		MaxOutputBytes:       1 << 20,
		MaxTemplateBytes:     64 << 10,
	}
}

// FuzzRender renders any template bytes with any small JSON object of
// variables. Properties: the engine never panics; an error is an *Error
// whose line lies within the file it names (template.yaml or an included
// file); a successful render encodes, and renders again, on the same engine
// and on a fresh one, to the same bytes.
func FuzzRender(f *testing.F) {
	for _, s := range fuzzSeedTemplates(f) {
		f.Add(s.template, s.vars)
	}
	f.Add([]byte("a:\n  $include: common/labels.yaml\n"), []byte(`{"name": "web"}`))
	f.Add([]byte("- $include: common/stream.yaml\n- $include: common/loop.yaml\n"), []byte(`{}`))

	e := New(fuzzOptions())
	f.Fuzz(func(t *testing.T, tpl, varsJSON []byte) {
		// A hang guard, not a speed assertion: an input that keeps the
		// engine busy this long crashes the worker, and the fuzzer saves it
		// as a failing case. With the small limits above a render takes
		// milliseconds.
		watchdog := time.AfterFunc(fuzzHangGuard, func() {
			panic(fmt.Sprintf("render still running after %v: template %q, vars %q", fuzzHangGuard, tpl, varsJSON))
		})
		defer watchdog.Stop()
		vars, err := decodeJSONVars(varsJSON)
		if err != nil {
			vars = map[string]value.Value{}
		}
		files := map[string][]byte{"template.yaml": tpl}
		for name, text := range fuzzIncludes {
			files[name] = []byte(text)
		}
		ctx := context.Background()

		docs, rerr := e.Render(ctx, Source{Name: "template.yaml", Text: tpl}, vars)
		if rerr != nil {
			var ee *Error
			if !errors.As(rerr, &ee) {
				t.Fatalf("error is %T, want *Error: %v", rerr, rerr)
			}
			checkErrorPosition(t, ee, files)
			return
		}
		out, err := emit.EncodeYAMLStream(docs)
		if err != nil {
			t.Fatalf("rendered but cannot encode: %v", err)
		}
		if err := encodesAsJSON(docs); err != nil {
			t.Fatalf("rendered but cannot encode as JSON: %v", err)
		}
		for i, eng := range []*Engine{e, New(fuzzOptions())} {
			docs2, err := eng.Render(ctx, Source{Name: "template.yaml", Text: tpl}, vars)
			if err != nil {
				t.Fatalf("render %d failed after a success: %v", i+2, err)
			}
			out2, err := emit.EncodeYAMLStream(docs2)
			if err != nil {
				t.Fatalf("render %d cannot encode: %v", i+2, err)
			}
			if !bytes.Equal(out, out2) {
				t.Fatalf("render %d differs:\n--- first:\n%s--- again:\n%s", i+2, out, out2)
			}
		}
	})
}

// checkErrorPosition asserts that an error's position lies within the file
// it names.
func checkErrorPosition(t *testing.T, ee *Error, files map[string][]byte) {
	t.Helper()
	if ee.Pos.Line < 1 || ee.Pos.Column < 1 {
		t.Fatalf("error position %s is not 1-based: %v", ee.Pos, ee)
	}
	text, ok := files[strings.TrimPrefix(path.Clean(filepath.ToSlash(ee.Pos.File)), "/")]
	if !ok {
		t.Fatalf("error names file %q, which the render did not read: %v", ee.Pos.File, ee)
	}
	lines := yamlLineCount(text)
	if ee.Pos.Line > lines {
		t.Fatalf("error line %d is beyond the %d lines of %s: %v", ee.Pos.Line, lines, ee.Pos.File, ee)
	}
	if !utf8.ValidString(ee.Error()) && utf8.Valid(text) {
		t.Fatalf("error text is not valid UTF-8 though the template is: %q", ee.Error())
	}
}

// yamlLineCount counts lines as YAML does: a line ends at "\r\n", "\r" or
// "\n", and also at NEL (U+0085), LS (U+2028) and PS (U+2029), which
// yaml.v3 treats as line breaks too.
func yamlLineCount(text []byte) int {
	lines := 1
	for i := 0; i < len(text); i++ {
		switch {
		case text[i] == '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			lines++
		case text[i] == '\n':
			lines++
		case bytes.HasPrefix(text[i:], []byte("\u0085")), bytes.HasPrefix(text[i:], []byte("\u2028")), bytes.HasPrefix(text[i:], []byte("\u2029")):
			lines++
		}
	}
	return lines
}

// encodesAsJSON writes each document as JSON and gives the first error.
func encodesAsJSON(docs []value.Value) error {
	for _, d := range docs {
		if _, err := emit.AppendJSON(nil, d, false); err != nil {
			return err
		}
	}
	return nil
}

func TestYAMLLineCount_countsEveryYAMLLineBreak(t *testing.T) {
	for text, want := range map[string]int{
		"":                1,
		"a":               1,
		"a\n":             2,
		"a\r\nb":          2,
		"\r0\n0:":         3,
		"a\rb\rc":         3,
		"a\u0085b\u2028c": 3,
		"a\u2029":         2,
	} {
		if got := yamlLineCount([]byte(text)); got != want {
			t.Errorf("yamlLineCount(%q) = %d, want %d", text, got, want)
		}
	}
}
