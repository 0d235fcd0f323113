package check_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/tools/txtar"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// checkReport checks t.yaml of files with the given names declared.
func checkReport(t *testing.T, files fstest.MapFS, declared ...string) string {
	t.Helper()
	e := engine.New(engine.Options{Loader: engine.FSLoader{FS: files}})
	src, err := e.LoadFile(context.Background(), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	problems, _ := e.Check(context.Background(), src, func(n string) bool { return strings.Contains(" "+strings.Join(declared, " ")+" ", " "+n+" ") })
	var b strings.Builder
	for _, p := range problems {
		if p.Warning {
			b.WriteString("warning ")
		}
		b.WriteString(p.Err.Pos.String() + ": " + p.Err.Path + ": " + p.Err.Msg + "\n")
	}
	return b.String()
}

func TestCheck_reportsEveryProblemNotOnlyTheFirst(t *testing.T) {
	files := fstest.MapFS{
		"t.yaml": {Data: []byte(`a:
  $iff: "x"
  $then: 1
b:
  $for: "p in ports"
ok: 1
---
c:
  $include: missing.yaml
---
d:
  $if: "true"
---
e: [unclosed
`)},
	}
	want := `t.yaml:2:3: a.$iff: unknown directive $iff: did you mean $if? To output a key $iff as data, write $$iff
t.yaml:5:3: b.$for: $for without $do: write the body to render for each element under $do
t.yaml:9:13: c.$include: cannot read included file "missing.yaml": file does not exist
t.yaml:12:3: d.$if: $if without $then: write the value to use when the condition is true under $then
t.yaml:13:1: : invalid YAML: did not find expected ',' or ']'
`
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestCheck_checksIncludedFilesOnceWithTheirChain(t *testing.T) {
	files := fstest.MapFS{
		"t.yaml":     {Data: []byte("a:\n  $include: lib/p.yaml\nb:\n  $include: lib/p.yaml\n")},
		"lib/p.yaml": {Data: []byte("x:\n  $else: 1\n")},
	}
	want := "lib/p.yaml:2:3: x.$else: $else without $if: $else belongs to $if in the same mapping\n"
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestCheck_warnsOnPlainStringNamingAVariableInScope(t *testing.T) {
	files := fstest.MapFS{"t.yaml": {Data: []byte(`a: "${{ fromValues }}"
b: "${{ unknownName }}"
c:
  $let: {port: "80"}
  s: "at ${{ port.x }}"
  e:
    $eval: "at ${{ port }}"
items:
  - $for: "k, v in m"
    $do: "${{ v }}"
`)}}
	want := `warning t.yaml:1:4: a: plain string holds ${{ fromValues }} and fromValues is a variable in scope, but a plain string is not evaluated: write $eval: "${{ fromValues }}" to interpolate it
warning t.yaml:5:6: c.s: plain string holds ${{ port }} and port is a variable in scope, but a plain string is not evaluated: write $eval: "at ${{ port.x }}" to interpolate it
warning t.yaml:10:10: items[0].$do: plain string holds ${{ v }} and v is a variable in scope, but a plain string is not evaluated: write $eval: "${{ v }}" to interpolate it
`
	if got := checkReport(t, files, "fromValues", "m"); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// A node aliases share is checked once, where its anchor is written: an
// alias of a plain string is not warned on again, nor one of an
// expression, a schema or a $let's template (reference §2).
func TestCheck_checksWhatAliasesShareOnceAtTheAnchor(t *testing.T) {
	files := fstest.MapFS{"t.yaml": {Data: []byte(`$let: {q: "1"}
$schema: {s: &S {type: string, description: "${{ q }}"}}
a: {b: &X "${{ q }}", c: [&Y {k: "${{ q }}"}]}
d: *X
e: [*Y, *X, *S]
f: &Z {$eval: "${{ zz }}", m: &W "${{ q }}"}
g: *Z
h: *W
i: {$eval: &E "${{ q }}"}
j: *E
l:
  $let: {t: {k: &K "${{ q }}"}}
  v: *K
`)}}
	want := `warning t.yaml:3:8: a.b: plain string holds ${{ q }} and q is a variable in scope, but a plain string is not evaluated: write $eval: "${{ q }}" to interpolate it
warning t.yaml:3:34: a.c[0].k: plain string holds ${{ q }} and q is a variable in scope, but a plain string is not evaluated: write $eval: "${{ q }}" to interpolate it
t.yaml:6:15: f.$eval: "zz" is not declared: no $let, $for or $schema in scope and no values file (-f) declares it
warning t.yaml:6:31: f.m: plain string holds ${{ q }} and q is a variable in scope, but a plain string is not evaluated: write $eval: "${{ q }}" to interpolate it
`
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// An included file is checked in the middle of its includer, which
// still passes an alias after it, of a mapping or of $with's entries
// (reference §4 $include).
func TestCheck_checksAnAliasAfterAnIncludeOnce(t *testing.T) {
	files := fstest.MapFS{
		"t.yaml": {Data: []byte(`$let: {n: "1"}
a: &A {k: "${{ n }}", $eval: "${{ n }}"}
b: {$include: part.yaml, $with: &W {m: "${{ n }}"}}
c: *A
d: *W
`)},
		"part.yaml": {Data: []byte(`p: "${{ n }}"` + "\n")},
	}
	want := `warning t.yaml:2:11: a.k: plain string holds ${{ n }} and n is a variable in scope, but a plain string is not evaluated: write $eval: "${{ n }}" to interpolate it
warning t.yaml:3:40: b.$with.m: plain string holds ${{ n }} and n is a variable in scope, but a plain string is not evaluated: write $eval: "${{ n }}" to interpolate it
warning part.yaml:1:4: p: plain string holds ${{ n }} and n is a variable in scope, but a plain string is not evaluated: write $eval: "${{ n }}" to interpolate it
`
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// Check reports at most 100 compile errors of a document: past them it
// removes what holds each quietly, and checks the rest of the document;
// the next document is checked too (reference §2).
func TestCheck_reportsOneHundredCompileErrorsADocumentAndChecksTheRest(t *testing.T) {
	var b strings.Builder
	b.WriteString("$let: {a: \"1\"}\n")
	for i := range 101 {
		b.WriteString("k" + strconv.Itoa(i) + ": {$iff: x}\n")
	}
	b.WriteString("w: \"${{ a }}\"\n---\n$let: {a: \"1\"}\nw: \"${{ a }}\"\n")
	report := checkReport(t, fstest.MapFS{"t.yaml": {Data: []byte(b.String())}})
	lines := strings.Split(strings.TrimSuffix(report, "\n"), "\n")
	if len(lines) != 102 {
		t.Fatalf("got %d problems, want 100 and a warning in each document:\n%s", len(lines), report)
	}
	for i, l := range lines[:100] {
		if want := "t.yaml:" + strconv.Itoa(i+2) + ":" + strconv.Itoa(len("k"+strconv.Itoa(i))+4) + ": k" + strconv.Itoa(i) + ".$iff: unknown directive $iff"; !strings.HasPrefix(l, want) {
			t.Errorf("problem %d: %s, want %s...", i, l, want)
		}
	}
	for i, want := range []string{"warning t.yaml:103:4: w: plain string holds ${{ a }}", "warning t.yaml:106:4: w: plain string holds ${{ a }}"} {
		if !strings.HasPrefix(lines[100+i], want) {
			t.Errorf("problem %d: %s, want %s...", 100+i, lines[100+i], want)
		}
	}
}

// A $schema's file that cannot be read is a problem at its entry, under
// the path check writes for the mapping it stands in (reference §4
// $schema).
func TestCheck_namesANestedSchemaFileProblemByCheckPath(t *testing.T) {
	files := fstest.MapFS{"t.yaml": {Data: []byte(`x:
  $if: true
  $then:
    $schema: {v: {$include: missing.json}}
    k: 1
`)}}
	want := `t.yaml:4:29: x.$then.$schema: cannot read included schema file "missing.json": file does not exist
`
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// A problem at an overlay's root does not stop the check of the rest of
// it: its condition and its patch are still read (reference §8).
func TestCheck_readsAnOverlayPastAProblemAtItsRoot(t *testing.T) {
	files := fstest.MapFS{"t.yaml": {Data: []byte(`$overlay: doc.kind == zz
$expect: 1
spec: {a: "${{ doc }}"}
`)}}
	want := `t.yaml:1:11: $overlay: "zz" is not declared: no $let, $for or $schema in scope and no values file (-f) declares it
t.yaml:2:1: $expect: unknown directive $expect: did you mean $expects? To output a key $expect as data, write $$expect
warning t.yaml:3:11: spec.a: plain string holds ${{ doc }} and doc is a variable in scope, but a plain string is not evaluated: write $eval: "${{ doc }}" to interpolate it
`
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestCheck_cleanTemplateHasNoProblems(t *testing.T) {
	files := fstest.MapFS{"t.yaml": {Data: []byte("a:\n  $eval: \"${{ x }}\"\n")}}
	if got := checkReport(t, files, "x"); got != "" {
		t.Errorf("got:\n%s", got)
	}
}

func TestCheck_reportsCELSyntaxErrorsInEveryExpressionPlace(t *testing.T) {
	files := fstest.MapFS{"t.yaml": {Data: []byte(`a:
  $if: "x ==="
  $then: 1
b:
  $eval: "${{ 1 + }} and ${{ 2 }}"
c:
  - $for: "p in [1,"
    $do: 1
d:
  $let: {v: "(("}
  $assert: ["true", "1 +"]
  e: 1
`)}}
	want := `t.yaml:2:8: a.$if: Syntax error: token recognition error at: '='; compare with == (CEL has no = or ===)
t.yaml:5:10: b.$eval: Syntax error: the expression ends too early, expecting a value
t.yaml:7:11: c[0].$for: Syntax error: missing ']' at the end of the expression
t.yaml:10:13: d.$let.v: Syntax error: the expression ends too early, expecting a value
t.yaml:11:21: d.$assert[1]: Syntax error: the expression ends too early, expecting a value
`
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// Check must not cry wolf: no golden template that renders has an error.
func TestCheck_findsNoErrorInAnySuccessfulGoldenCase(t *testing.T) {
	names, err := filepath.Glob("../testdata/golden/*/*.txtar")
	if err != nil || len(names) < 150 {
		t.Fatalf("golden cases: %d, %v", len(names), err)
	}
	for _, name := range names {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		files := fstest.MapFS{}
		for _, f := range ar.Files {
			files[f.Name] = &fstest.MapFile{Data: f.Data}
		}
		if files["out.yaml"] == nil {
			continue
		}
		vars := map[string]any{}
		for _, sec := range []string{"vars.json", "unknowns.json"} { // unknowns.json: variables not known yet
			if v := files[sec]; v != nil {
				if err := json.Unmarshal(v.Data, &vars); err != nil {
					t.Fatal(err)
				}
			}
		}
		e := engine.New(engine.Options{Loader: engine.FSLoader{FS: files}})
		src, err := e.LoadFile(context.Background(), "template.yaml")
		if err != nil {
			t.Fatal(err)
		}
		problems, _ := e.Check(context.Background(), src, func(n string) bool { _, ok := vars[n]; return ok })
		for _, p := range problems {
			if !p.Warning {
				t.Errorf("%s: %s", filepath.Base(name), p.Err)
			}
		}
	}
}

func TestCheck_reportsNamesNothingDeclares(t *testing.T) {
	files := fstest.MapFS{"t.yaml": {Data: []byte(`$schema: {env: string}
$let: {base: "'x'"}
---
a:
  $let: {one: "1", two: "one + 1"}
  b:
    $eval: "${{ env + base + string(two) + string(type(two) == int) + nope }}"
  c:
    - $for: "p in [1, 2].filter(n, n > zero)"
      $do:
        $eval: "${{ p + math.greatest(1, 2) + {k: 1}.k }}"
d:
  $eval: "${{ p }}"
e:
  $eval: "${{ fromValues }}"
`)}}
	want := `t.yaml:7:12: a.b.$eval: "nope" is not declared: no $let, $for or $schema in scope and no values file (-f) declares it; did you mean 'one'?
t.yaml:9:13: a.c[0].$for: "zero" is not declared: no $let, $for or $schema in scope and no values file (-f) declares it
t.yaml:13:10: d.$eval: "p" is not declared: no $let, $for or $schema in scope and no values file (-f) declares it
`
	if got := checkReport(t, files, "fromValues"); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// In an overlay, doc is declared by $overlay and item by $match and
// $remove (reference §8): check reports neither, and still reports a name
// nothing declares.
func TestCheck_overlayNamesDocAndItem(t *testing.T) {
	files := fstest.MapFS{"t.yaml": {Data: []byte("kind: A\n---\n$overlay: doc.kind == 'A'\nxs:\n  - $match: item.name == doc.kind\n    y: 1\n  - $remove: item == missing\n")}}
	want := "t.yaml:7:14: xs[1].$remove: \"missing\" is not declared: no $let, $for or $schema in scope and no values file (-f) declares it\n"
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
