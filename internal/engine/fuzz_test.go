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
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/lex"
)

// FuzzScanSegments checks the ${{ }} scanner's properties on any string:
// it never panics; on success the segments, written back (expressions in
// ${{ }}, a literal "${{" as its escape "$${{"), give the input again;
// offsets are in range and increasing, and each expression and each
// unescaped literal is the input's text at its offset; two literals are
// never adjacent. On failure the error offset is inside the input.
func FuzzScanSegments(f *testing.F) {
	for _, s := range []string{
		"", "plain", "${{ x }}", "a ${{ x }} b", "$${{ not }}", "$$${{ x }}",
		"${{ { 'a': '}}' } }}", "${{ \"}}\" }}", "${{ '''}}''' }}", "${{ r'\\}}' }}",
		"${{ b\"}}\" }}", "${{ x", "${{ }}", "${{ 'unterminated }}", "${{ {{ }}",
		"a$${{b${{c}}d$${{", "${{a}}${{b}}", "${{ 'a\nb' }}", "}}${{x}}}}",
		"\xff${{\xfe}}", "${{ rb'x' + BR\"y\" }}",
	} {
		f.Add(s)
	}
	for _, c := range fuzzSeedTemplates(f) {
		f.Add(string(c.template))
	}
	f.Fuzz(func(t *testing.T, s string) {
		segs, err := scanSegments(s)
		if err != nil {
			if err.Offset < 0 || err.Offset >= len(s) {
				t.Fatalf("error offset %d out of range for %d bytes: %s", err.Offset, len(s), err.Msg)
			}
			return
		}
		if len(segs) == 0 {
			t.Fatal("no segments")
		}
		var b strings.Builder
		prevEnd := 0
		for i, sg := range segs {
			if sg.off < prevEnd || sg.off > len(s) {
				t.Fatalf("segment %d: offset %d out of order or range (previous end %d, len %d)", i, sg.off, prevEnd, len(s))
			}
			if sg.expr {
				end := sg.off + len(sg.text)
				if sg.off < 3 || end+2 > len(s) || s[sg.off-3:sg.off] != "${{" || s[end:end+2] != "}}" {
					t.Fatalf("segment %d: expression %q at %d is not enclosed in ${{ }}", i, sg.text, sg.off)
				}
				if s[sg.off:end] != sg.text {
					t.Fatalf("segment %d: expression text %q is not the input at %d", i, sg.text, sg.off)
				}
				if lex.IsBlank(sg.text) {
					t.Fatalf("segment %d: blank expression accepted", i)
				}
				b.WriteString("${{")
				b.WriteString(sg.text)
				b.WriteString("}}")
				prevEnd = end + 2
				continue
			}
			if i > 0 && !segs[i-1].expr {
				t.Fatalf("segments %d and %d are adjacent literals", i-1, i)
			}
			if sg.text == "" && len(segs) > 1 {
				t.Fatalf("segment %d: empty literal", i)
			}
			lit := strings.ReplaceAll(sg.text, "${{", "$${{")
			if !strings.HasPrefix(s[sg.off:], lit) {
				t.Fatalf("segment %d: literal %q (escaped %q) is not the input at %d", i, sg.text, lit, sg.off)
			}
			b.WriteString(lit)
			prevEnd = sg.off + len(lit)
		}
		if b.String() != s {
			t.Fatalf("segments do not rejoin to the input:\n got %q\nwant %q", b.String(), s)
		}
	})
}

// fuzzSeed is a template and its variables from the corpora.
type fuzzSeed struct {
	template []byte
	vars     []byte
}

// fuzzSeedTemplates returns the template and vars.json of every golden and
// hostile case that keeps its template in the archive.
func fuzzSeedTemplates(t testing.TB) []fuzzSeed {
	var seeds []fuzzSeed
	for _, dir := range []string{"testdata", hostileDir} {
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
			vars = map[string]Value{}
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
func encodesAsJSON(docs []Value) error {
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
