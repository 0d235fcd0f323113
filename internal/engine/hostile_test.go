package engine

// Hostile templates: resource bombs and malformed input.
//
// Every file in testdata/hostile/*.txtar is one case, in the format of the
// golden corpus (see golden_test.go): template.yaml and the files it
// includes, optional vars.json and options.json, and exactly one of error
// (the exact err.Error() text) and out.yaml. A case may instead carry a
// `generate` section naming a generator below, for templates too large or
// too binary to keep in a text file: the 300 MB template, 10,000-deep
// nesting, invalid UTF-8 and NUL bytes. The generated text becomes
// template.yaml.
//
// TestHostile asserts, per case: the exact error (which for a resource bomb
// names the limit), no panic, and a peak heap under 256 MB, measured by
// sampling runtime/metrics after a GC. Time is reported (go test -v) and
// asserted only as a hang guard (20 s, 100 s under -race);
// BenchmarkHostile measures it.
//
// go test ./internal/engine -run TestHostile -update-hostile rewrites the
// expectation sections; check every change by hand.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/emit"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"golang.org/x/tools/txtar"
)

var updateHostile = flag.Bool("update-hostile", false, "rewrite the expectation sections of testdata/hostile/*.txtar (check every change by hand)")

const (
	hostileDir = "testdata/hostile"
	// hostileMaxHeap is the peak heap a case may use above what was live
	// before it started.
	hostileMaxHeap = 256 << 20
	// hostileHangGuard only catches hangs; speed is measured by
	// BenchmarkHostile. The race detector slows the engine down about
	// tenfold, so under -race the guard is five times longer.
	hostileHangGuard = 20 * time.Second
)

// raceEnabled reports whether the test binary was built with -race.
func raceEnabled() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

func hangGuard() time.Duration {
	if raceEnabled() {
		return 5 * hostileHangGuard
	}
	return hostileHangGuard
}

// txtarCase is one parsed archive of the golden or hostile corpus.
type txtarCase struct {
	name string
	path string
	ar   *txtar.Archive
}

func (c *txtarCase) section(name string) ([]byte, bool) {
	for _, f := range c.ar.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

func loadTxtarCases(t testing.TB, dir string) []*txtarCase {
	t.Helper()
	var cases []*txtarCase
	for _, p := range CasePaths(t, dir) {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		cases = append(cases, &txtarCase{name: strings.TrimSuffix(filepath.Base(p), ".txtar"), path: p, ar: ar})
	}
	return cases
}

// caseExpectations are the sections a template may not read.
var caseExpectations = []string{"vars.json", "options.json", "out.yaml", "out.json", "error", "generate"}

// caseFiles returns the template's files: the archive without its
// expectation sections, plus the generated template.yaml, if any.
func caseFiles(t testing.TB, c *txtarCase) *txtar.Archive {
	t.Helper()
	out := &txtar.Archive{}
	for _, f := range c.ar.Files {
		if !slices.Contains(caseExpectations, f.Name) {
			out.Files = append(out.Files, f)
		}
	}
	if spec, ok := c.section("generate"); ok {
		text, err := generateTemplate(strings.TrimSpace(string(spec)))
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		out.Files = append(out.Files, txtar.File{Name: "template.yaml", Data: text})
	}
	return out
}

// caseOptions returns the engine options of a case (defaults, overridden
// by options.json), with a loader over the case's files.
func caseOptions(t testing.TB, c *txtarCase) Options {
	t.Helper()
	opts := DefaultOptions()
	if data, ok := c.section("options.json"); ok {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&opts); err != nil {
			t.Fatalf("%s: options.json: %v", c.path, err)
		}
	}
	fsys, err := txtar.FS(caseFiles(t, c))
	if err != nil {
		t.Fatalf("%s: %v", c.path, err)
	}
	opts.Loader = FSLoader{FS: fsys}
	return opts
}

func caseVars(t testing.TB, c *txtarCase) map[string]value.Value {
	t.Helper()
	data, ok := c.section("vars.json")
	if !ok {
		return map[string]value.Value{}
	}
	vars, err := decodeJSONVars(data)
	if err != nil {
		t.Fatalf("%s: vars.json: %v", c.path, err)
	}
	return vars
}

// decodeJSONVars decodes a JSON object of variables the way the provider
// hands Terraform values over: whole numbers that fit in int64 are int64,
// other numbers float64, objects *Map with sorted keys, arrays []Value.
func decodeJSONVars(data []byte) (map[string]value.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON object")
	}
	vars := make(map[string]value.Value, len(raw))
	for k, v := range raw {
		vars[k] = jsonToValue(v)
	}
	return vars, nil
}

func jsonToValue(v any) value.Value {
	switch v := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(v), 64)
		return f
	case []any:
		out := make([]value.Value, len(v))
		for i, e := range v {
			out[i] = jsonToValue(e)
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		m := value.NewMap(len(keys))
		for _, k := range keys {
			m.Set(k, jsonToValue(v[k]))
		}
		return m
	}
	return v
}

// renderResult is what a render gave, as text: the YAML stream, or the
// error.
type renderResult struct {
	out []byte
	err error
}

func (r renderResult) String() string {
	if r.err != nil {
		return "error: " + r.err.Error()
	}
	return string(r.out)
}

// renderCase renders a case's template.yaml with e. A panic is returned as
// an error that the callers report.
func renderCase(ctx context.Context, e *Engine, name string, vars map[string]value.Value) (res renderResult) {
	defer func() {
		if r := recover(); r != nil {
			res = renderResult{err: fmt.Errorf("engine panicked: %v", r)}
		}
	}()
	docs, err := e.RenderFile(ctx, name, vars)
	if err != nil {
		return renderResult{err: err}
	}
	out, err := emit.EncodeYAMLStream(docs)
	if err != nil {
		return renderResult{err: fmt.Errorf("EncodeYAMLStream: %w", err)}
	}
	return renderResult{out: out}
}

// Generators for templates that do not fit a text file.
func generateTemplate(spec string) ([]byte, error) {
	name, arg, _ := strings.Cut(spec, " ")
	n := 0
	if arg != "" {
		var err error
		if n, err = strconv.Atoi(arg); err != nil {
			return nil, fmt.Errorf("generate %q: %v", spec, err)
		}
	}
	switch name {
	case "flow-seq": // v: [[[ ... 1 ... ]]], n deep
		return []byte("v: " + strings.Repeat("[", n) + "1" + strings.Repeat("]", n) + "\n"), nil
	case "flow-map": // v: {a: {a: ... 1 ...}}, n deep
		return []byte("v: " + strings.Repeat("{a: ", n) + "1" + strings.Repeat("}", n) + "\n"), nil
	case "block-seq": // - - - ... x, n deep, on one line
		return []byte(strings.Repeat("- ", n) + "x\n"), nil
	case "big": // n bytes of ordinary mapping entries
		var b bytes.Buffer
		b.Grow(n + 64)
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "key%08d: some ordinary value that pads the line\n", i)
		}
		return b.Bytes(), nil
	case "preambles": // n preambles, each followed by a document that reads a root variable
		var b bytes.Buffer
		for range n {
			b.WriteString("$let: {a: \"x\"}\n---\nv: {$eval: \"${{ x }}\"}\n---\n")
		}
		return b.Bytes(), nil
	case "overlays": // n documents and n overlays that match none of them
		var b bytes.Buffer
		for range n {
			b.WriteString("a: 1\n---\n")
		}
		for range n {
			b.WriteString("$overlay: false\n$expects: '0+'\nb: 1\n---\n")
		}
		return b.Bytes(), nil
	case "transform-docs": // a removing overlay and a transform with every field on n documents (ConfigMaps, every hundredth a Deployment), the last of a kind of unknown scope
		var b bytes.Buffer
		b.WriteString("$overlay: doc.metadata.name == 'drop'\n$remove: true\n---\n")
		b.WriteString("$transform:\n  namespace: edge\n  labels: {team: platform}\n  selectorLabels: {app: web}\n  annotations: {owner: platform}\n  images: [{name: nginx, newTag: '1.27'}]\n---\n")
		fmt.Fprintf(&b, "$for: i in lists.range(%d)\n$do:\n  $if: i %% 100 == 0\n  $then: {apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {template: {spec: {containers: [{name: web, image: nginx}]}}}}\n  $else: {apiVersion: v1, kind: ConfigMap, metadata: {name: settings}, data: {a: b}}\n---\n", n-2)
		b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: drop}\n---\napiVersion: x.io/v1\nkind: W\nmetadata: {name: last}\n")
		return b.Bytes(), nil
	case "keep-entries": // n ConfigMaps and a transform with n keepNamespace entries, each naming one by kind and name, and one more entry naming none
		var b bytes.Buffer
		fmt.Fprintf(&b, "$for: i in lists.range(%d)\n$do: {apiVersion: v1, kind: ConfigMap, metadata: {name: {$eval: '${{ \"cm-\" + string(i) }}'}, namespace: upstream}}\n---\n", n)
		fmt.Fprintf(&b, "$transform:\n  namespace: edge\n  keepNamespace:\n    $eval: '${{ lists.range(%d).map(i, {\"kind\": \"ConfigMap\", \"name\": \"cm-\" + string(i)}) + [{\"namespace\": \"elsewhere\"}] }}'\n", n)
		return b.Bytes(), nil
	case "deep-pod": // a Deployment whose pod template nests n levels deep, containers at each, then a transform
		var b bytes.Buffer
		b.WriteString("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: deep}\nspec: ")
		b.WriteString(strings.Repeat("{template: {spec: {containers: [{name: c, image: nginx}], initContainers: [{name: i, image: 'nginx:1'}], next: ", n))
		b.WriteString("null" + strings.Repeat("}}}", n) + "\n---\n")
		b.WriteString("apiVersion: x.io/v1\nkind: W\nmetadata: {name: last}\n---\n")
		b.WriteString("$transform:\n  images: [{name: nginx, newTag: '1.27'}]\n  selectorLabels: {app: web}\n  namespace: edge\n")
		return b.Bytes(), nil
	case "invalid-utf8":
		return []byte("name: web\nlabel: \"bad \xff\xfe bytes\"\n"), nil
	case "nul-byte":
		return []byte("name: web\nlabel: bad\x00byte\n"), nil
	}
	return nil, fmt.Errorf("unknown generator %q", spec)
}

// memSampler tracks the peak live heap while a case runs.
type memSampler struct {
	stop chan struct{}
	done chan struct{}
	base uint64
	peak uint64
}

const heapMetric = "/memory/classes/heap/objects:bytes"

func heapNow() uint64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

func startMemSampler() *memSampler {
	runtime.GC()
	m := &memSampler{stop: make(chan struct{}), done: make(chan struct{}), base: heapNow()}
	m.peak = m.base
	go func() {
		defer close(m.done)
		tick := time.NewTicker(200 * time.Microsecond)
		defer tick.Stop()
		for {
			if h := heapNow(); h > m.peak {
				m.peak = h
			}
			select {
			case <-m.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return m
}

// finish stops sampling and returns the peak heap above the baseline.
func (m *memSampler) finish() uint64 {
	close(m.stop)
	<-m.done
	if h := heapNow(); h > m.peak {
		m.peak = h
	}
	if m.peak < m.base {
		return 0
	}
	return m.peak - m.base
}

// hostileRun is the measured outcome of one case.
type hostileRun struct {
	res       renderResult
	elapsed   time.Duration
	peak      uint64 // bytes of heap above the baseline
	totalHeap uint64 // bytes allocated in all
	hung      bool
}

func runHostile(t testing.TB, c *txtarCase) hostileRun {
	t.Helper()
	opts := caseOptions(t, c)
	vars := caseVars(t, c)
	e := New(opts)

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m := startMemSampler()
	start := time.Now()
	resc := make(chan renderResult, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { resc <- renderCase(ctx, e, "template.yaml", vars) }()
	var run hostileRun
	select {
	case run.res = <-resc:
	case <-time.After(hangGuard()):
		cancel()
		run.hung = true
		run.res = <-resc
	}
	run.elapsed = time.Since(start)
	run.peak = m.finish()
	runtime.ReadMemStats(&after)
	run.totalHeap = after.TotalAlloc - before.TotalAlloc
	return run
}

func TestHostile(t *testing.T) {
	cases := loadTxtarCases(t, hostileDir)
	if len(cases) == 0 {
		t.Fatal("no hostile cases")
	}
	var report []string
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := runHostile(t, c)
			report = append(report, fmt.Sprintf("%-45s %9.1f ms  peak %7.1f MB  allocated %8.1f MB",
				c.name, float64(run.elapsed.Microseconds())/1000, float64(run.peak)/(1<<20), float64(run.totalHeap)/(1<<20)))
			if run.hung {
				t.Fatalf("still running after %v: the engine hangs", hangGuard())
			}
			if *updateHostile {
				updateTxtarCase(t, c, run.res)
				return
			}
			checkCaseResult(t, c, run.res)
			if run.peak > hostileMaxHeap {
				t.Errorf("peak heap %d MB, want under %d MB", run.peak>>20, hostileMaxHeap>>20)
			}
		})
	}
	t.Log("time and peak heap per case:\n" + strings.Join(report, "\n"))
}

// checkCaseResult compares a result with the case's error or out.yaml.
func checkCaseResult(t *testing.T, c *txtarCase, res renderResult) {
	t.Helper()
	if res.err != nil && strings.HasPrefix(res.err.Error(), "engine panicked") {
		t.Fatal(res.err)
	}
	if want, ok := c.section("error"); ok {
		want := strings.TrimSuffix(string(want), "\n")
		if res.err == nil {
			t.Fatalf("rendered, want error\n--- want error:\n%s\n--- got out.yaml:\n%s", want, res.out)
		}
		if got := res.err.Error(); got != want {
			t.Errorf("error text differs\n--- want:\n%s\n--- got:\n%s", want, got)
		}
		var ee *Error
		if !errors.As(res.err, &ee) {
			t.Errorf("error is %T, want *Error", res.err)
		}
		return
	}
	want, ok := c.section("out.yaml")
	if !ok {
		t.Fatalf("%s: want exactly one of error and out.yaml", c.path)
	}
	if res.err != nil {
		t.Fatalf("render failed, want output\n--- want out.yaml:\n%s--- got error:\n%s", want, res.err)
	}
	if !bytes.Equal(res.out, want) {
		t.Errorf("out.yaml differs\n--- want:\n%s--- got:\n%s", want, res.out)
	}
}

func updateTxtarCase(t *testing.T, c *txtarCase, res renderResult) {
	t.Helper()
	var files []txtar.File
	for _, f := range c.ar.Files {
		if f.Name != "error" && f.Name != "out.yaml" {
			files = append(files, f)
		}
	}
	if res.err != nil {
		files = append(files, txtar.File{Name: "error", Data: []byte(res.err.Error() + "\n")})
	} else {
		files = append(files, txtar.File{Name: "out.yaml", Data: res.out})
	}
	c.ar.Files = files
	if err := os.WriteFile(c.path, txtar.Format(c.ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHostile_resourceBombsNameTheirLimit checks that every bomb case that
// fails does so with an *Error whose Limit field is set and named in the
// message, or, for the fixed limits of the parsers and of CEL helpers (YAML
// and CEL nesting, lists.range sizes, the nodes of one CEL value), whose
// message says which limit.
func TestHostile_resourceBombsNameTheirLimit(t *testing.T) {
	for _, c := range loadTxtarCases(t, hostileDir) {
		if !strings.HasPrefix(c.name, "bomb_") && !strings.HasPrefix(c.name, "include_") {
			continue
		}
		if _, ok := c.section("error"); !ok {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			run := runHostile(t, c)
			var ee *Error
			if !errors.As(run.res.err, &ee) {
				t.Fatalf("got %v, want an *Error", run.res)
			}
			msg := ee.Error()
			switch {
			case ee.Limit != "":
				if !strings.Contains(msg, ee.Limit) {
					t.Errorf("Limit is %q but the message does not name it: %s", ee.Limit, msg)
				}
			case strings.Contains(msg, "cycle"), strings.Contains(msg, "depth"), strings.Contains(msg, "recursion"), strings.Contains(msg, "nest"), strings.Contains(msg, "alias"), strings.Contains(msg, "maximum allowed"), strings.Contains(msg, "the most one CEL value may hold"):
			default:
				t.Errorf("error neither sets Limit nor names a parser limit: %s", msg)
			}
		})
	}
}

func BenchmarkHostile(b *testing.B) {
	for _, c := range loadTxtarCases(b, hostileDir) {
		b.Run(c.name, func(b *testing.B) {
			opts := caseOptions(b, c)
			vars := caseVars(b, c)
			// A cancellable context, as Terraform always gives one: the
			// engine takes a slower path for those.
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			for b.Loop() {
				// A fresh engine each time: nothing cached from the last
				// round.
				res := renderCase(ctx, New(opts), "template.yaml", vars)
				if res.err != nil && strings.HasPrefix(res.err.Error(), "engine panicked") {
					b.Fatal(res.err)
				}
			}
		})
	}
}

// Include confinement: OSLoader{Roots} keeps $include and
// RenderFile inside the roots, after following symlinks.

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestInclude_confinedToRoots(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	writeFiles(t, base, map[string]string{
		"outside.yaml":          "secret: outside\n",
		"root/main.yaml":        "a:\n  $include: parts/inner.yaml\n",
		"root/parts/inner.yaml": "inner: true\n",
		"root/dotdot.yaml":      "a:\n  $include: ../outside.yaml\n",
		"root/sneaky.yaml":      "a:\n  $include: parts/../../outside.yaml\n",
		"root/abs.yaml":         "a:\n  $include: " + filepath.Join(base, "outside.yaml") + "\n",
		"root/via_link.yaml":    "a:\n  $include: link.yaml\n",
		"root/via_dirlink.yaml": "a:\n  $include: dirlink/outside.yaml\n",
		"root/via_inlink.yaml":  "a:\n  $include: inlink.yaml\n",
		"root/missing.yaml":     "a:\n  $include: nope.yaml\n",
	})
	mustSymlink(t, filepath.Join(base, "outside.yaml"), filepath.Join(root, "link.yaml"))
	mustSymlink(t, base, filepath.Join(root, "dirlink"))
	mustSymlink(t, filepath.Join(root, "parts", "inner.yaml"), filepath.Join(root, "inlink.yaml"))

	e := New(Options{Loader: OSLoader{Roots: []string{root}}})
	render := func(name string) string {
		res := renderCase(context.Background(), e, filepath.Join(root, name), nil)
		return strings.ReplaceAll(res.String(), base, "BASE")
	}
	cases := []struct{ file, want string }{
		{"main.yaml", "a:\n  inner: true\n"},
		{"via_inlink.yaml", "a:\n  inner: true\n"},
		{"dotdot.yaml", `error: BASE/root/dotdot.yaml:2:13: a.$include: cannot read included file "BASE/outside.yaml": file is outside the allowed include roots`},
		{"sneaky.yaml", `error: BASE/root/sneaky.yaml:2:13: a.$include: cannot read included file "BASE/outside.yaml": file is outside the allowed include roots`},
		{"abs.yaml", `error: BASE/root/abs.yaml:2:13: a.$include: cannot read included file "BASE/outside.yaml": file is outside the allowed include roots`},
		{"via_link.yaml", `error: BASE/root/via_link.yaml:2:13: a.$include: cannot read included file "BASE/root/link.yaml": file is outside the allowed include roots`},
		{"via_dirlink.yaml", `error: BASE/root/via_dirlink.yaml:2:13: a.$include: cannot read included file "BASE/root/dirlink/outside.yaml": file is outside the allowed include roots`},
		{"missing.yaml", `error: BASE/root/missing.yaml:2:13: a.$include: cannot read included file "BASE/root/nope.yaml": file does not exist`},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			if got := render(c.file); got != c.want {
				t.Errorf("\n got: %s\nwant: %s", got, c.want)
			}
		})
	}

	t.Run("template outside the roots", func(t *testing.T) {
		res := renderCase(context.Background(), e, filepath.Join(base, "outside.yaml"), nil)
		got := strings.ReplaceAll(res.String(), base, "BASE")
		want := "error: BASE/outside.yaml:1:1: cannot read template: file is outside the allowed include roots"
		if got != want {
			t.Errorf("\n got: %s\nwant: %s", got, want)
		}
	})

	t.Run("root given through a symlink", func(t *testing.T) {
		linkRoot := filepath.Join(base, "rootlink")
		mustSymlink(t, root, linkRoot)
		e := New(Options{Loader: OSLoader{Roots: []string{linkRoot}}})
		res := renderCase(context.Background(), e, filepath.Join(linkRoot, "main.yaml"), nil)
		if got := res.String(); got != "a:\n  inner: true\n" {
			t.Errorf("got %s", got)
		}
		res = renderCase(context.Background(), e, filepath.Join(linkRoot, "dotdot.yaml"), nil)
		if !strings.Contains(res.String(), "outside the allowed include roots") {
			t.Errorf("got %s, want the include refused", res.String())
		}
	})

	t.Run("no roots keeps the file() trust model", func(t *testing.T) {
		e := New(Options{Loader: OSLoader{}})
		res := renderCase(context.Background(), e, filepath.Join(root, "dotdot.yaml"), nil)
		if got := res.String(); got != "a:\n  secret: outside\n" {
			t.Errorf("got %s", got)
		}
	})
}

func TestOSLoader_refusesWhatLeavesTheRoots(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	writeFiles(t, base, map[string]string{"outside.txt": "x", "root/in.txt": "in", "rootsibling/x.txt": "y"})
	mustSymlink(t, filepath.Join(base, "outside.txt"), filepath.Join(root, "out-link"))
	l := OSLoader{Roots: []string{root}}
	if b, err := l.ReadFile(context.Background(), filepath.Join(root, "in.txt"), 1<<20); err != nil || string(b) != "in" {
		t.Errorf("in.txt: %q, %v", b, err)
	}
	for _, name := range []string{
		filepath.Join(base, "outside.txt"),
		filepath.Join(root, "..", "outside.txt"),
		filepath.Join(root, "out-link"),
		// A sibling whose name starts with the root's name is not inside it.
		filepath.Join(base, "rootsibling", "x.txt"),
	} {
		if _, err := l.ReadFile(context.Background(), name, 1<<20); !errors.Is(err, ErrOutsideRoots) {
			t.Errorf("%s: err = %v, want ErrOutsideRoots", name, err)
		}
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatalf("symlink: %v", err)
	}
}
