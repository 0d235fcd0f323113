package check_test

import (
	"testing"
	"testing/fstest"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// A mapping with several problems reports each of them, not only the
// first the compiler meets; removing a directive takes its partners with
// it, so no problem is invented ($then without $if).
func TestCheck_reportsEveryProblemOfOneMapping(t *testing.T) {
	files := fstest.MapFS{"t.yaml": {Data: []byte(`a:
  $if: "true"
  $for: "x in [1]"
  $eval: 3
b:
  $iff: "x"
  $then: 1
  $else: 2
  $key: k
c:
  $if: "true"
  $then:
  $for: "y in [1]"
  $do: {$fro: 1}
  d: {$evl: 1, $msg: m}
`)}}
	want := `t.yaml:2:3: a.$if: $if without $then: write the value to use when the condition is true under $then
t.yaml:3:3: a.$for: $for without $do: write the body to render for each element under $do
t.yaml:4:10: a.$eval: $eval takes a string with ${{ }} expressions, got an int
t.yaml:6:3: b.$iff: unknown directive $iff: did you mean $if? To output a key $iff as data, write $$iff
t.yaml:9:3: b.$key: $key without $value: $key and $value make one entry together
t.yaml:12:3: c.$then: $then has no value: the lines meant as its body are probably not indented under it; indent them, or write $then: null for nothing
t.yaml:14:9: c.$for.$do.$fro: unknown directive $fro: did you mean $for? To output a key $fro as data, write $$fro
t.yaml:15:7: c.d.$evl: unknown directive $evl: did you mean $eval? To output a key $evl as data, write $$evl
t.yaml:15:16: c.d.$msg: $msg without $assert: $msg belongs to $assert in the same mapping
`
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// An $include whose path is written as data that is no file path string
// is reported where a render reports it, with the same words; a computed
// path is the render's to check.
func TestCheck_includePathThatIsNoStringIsReported(t *testing.T) {
	files := fstest.MapFS{"t.yaml": {Data: []byte("a:\n  $include: [a.yaml, b.yaml]\nb:\n  $include: \"\"\nc:\n  $include: 3\nd:\n  $include: {$eval: \"${{ 'x' }}\"}\n")}}
	want := `t.yaml:2:13: a.$include: $include takes a file path string, got a list
t.yaml:4:13: b.$include: $include takes a file path string, got an empty string
t.yaml:6:13: c.$include: $include takes a file path string, got an int
`
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// The inputs check must be given before it renders: the $schema entries
// with no default that no enclosing $let, $for or $schema binds, in every
// document; a preamble's names count for the documents after it.
func TestInputsWithoutDefault_namesWhatARenderNeeds(t *testing.T) {
	text := `$schema:
  env: string
  replicas: {type: integer, default: 2}
$let: {base: "'x'"}
---
$schema: {base: string, region: string}
$for: "svc in [1]"
$do:
  $schema: {svc: integer, env: string, zone: {default: a}}
  v: 1
---
$schema: {env: string, region: string, extra: object}
`
	e := engine.New(engine.Options{})
	got := e.InputsWithoutDefault(engine.Source{Name: "t.yaml", Text: []byte(text)}, func(n string) bool { return n == "extra" })
	want := []string{"env", "region"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := e.InputsWithoutDefault(engine.Source{Name: "t.yaml", Text: []byte("a: [")}, nil); got != nil {
		t.Errorf("a template that does not parse: got %q, want nil", got)
	}
}

// A document with $schema and no $let gives a document, as a render
// decides: its names are not in scope in the documents after it.
func TestCheck_schemaOnlyDocumentIsNoPreamble(t *testing.T) {
	files := fstest.MapFS{"t.yaml": {Data: []byte("$schema: {env: string}\n---\na:\n  $eval: \"${{ env }}\"\n---\n$schema: {env: string}\n$let: {x: \"1\"}\n---\nb:\n  $eval: \"${{ env }}\"\n")}}
	want := `t.yaml:4:10: a.$eval: "env" is not declared: no $let, $for or $schema in scope and no values file (-f) declares it
`
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// A file brought in by a literal $include is checked with the names in
// scope at the $include and its $with entries, so a slip in a helpers
// file is found, with render's suggestion, and its include chain. A $let
// entry does not see its own name (reference §4 $let).
func TestCheck_includedFileSeesTheIncludersNames(t *testing.T) {
	files := fstest.MapFS{
		"t.yaml":       {Data: []byte("$schema: {release: string}\n$let:\n  h: {$include: helpers.yaml, $with: {part: \"'x'\"}}\nname:\n  $eval: \"${{ h.fullname }}\"\n")},
		"helpers.yaml": {Data: []byte("fullname:\n  $eval: \"${{ relase }}-${{ part }}-${{ h }}\"\n")},
	}
	e := engine.New(engine.Options{Loader: engine.FSLoader{FS: files}})
	src, err := e.LoadFile(t.Context(), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	problems, _ := e.Check(t.Context(), src, nil)
	var got string
	for _, p := range problems {
		got += p.Err.Error() + "\n"
	}
	want := `helpers.yaml:2:10: fullname.$eval: "relase" is not declared: no $let, $for or $schema in scope and no values file (-f) declares it; did you mean 'release'?
  | ${{ relase }}-${{ part }}-${{ h }}
  | ....^
  included from t.yaml:3:7
helpers.yaml:2:10: fullname.$eval: "h" is not declared: no $let, $for or $schema in scope and no values file (-f) declares it
  | ${{ relase }}-${{ part }}-${{ h }}
  | ..............................^
  included from t.yaml:3:7
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// A $let entry sees the entries above it, not those below (reference §4
// $let), and the mapping's $schema.
func TestCheck_letEntrySeesOnlyTheEntriesAboveIt(t *testing.T) {
	files := fstest.MapFS{"t.yaml": {Data: []byte("$schema: {env: string}\n$let:\n  a: \"env + b\"\n  b: \"a + env\"\nv:\n  $eval: \"${{ a + b }}\"\n")}}
	want := `t.yaml:3:6: $let.a: "b" is not declared: no $let, $for or $schema in scope and no values file (-f) declares it
`
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
