package check_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

func TestSymbols_namesInScopeWithWhereTheyAreBoundAndWhatTheSchemaSays(t *testing.T) {
	src := engine.Source{Name: "dir/app.yaml", Text: []byte(`$schema:
  values:
    type: object
    description: The chart's inputs.
    properties:
      replicas: {type: integer, description: How many pods.}
  env: string
$let:
  a: values.replicas
  b: a + 1
---
items:
  $for: "x, i in [1, 2]"
  $do:
    n: ${{ x }}
    f:
      $include: files/one.yaml
`)}
	s, err := engine.New(engine.DefaultOptions()).Symbols(src)
	if err != nil {
		t.Fatal(err)
	}
	names := func(line, col int) string { return namesAt(s, line, col) }
	// In a's expression, a is not yet bound; in b's, it is.
	if got, want := names(9, 6), `["schema:env@dir/app.yaml:7:3","schema:values@dir/app.yaml:2:3"]`; got != want {
		t.Errorf("at a's expression:\n got %s\nwant %s", got, want)
	}
	if got, want := names(10, 6), `["let:a@dir/app.yaml:9:3","schema:env@dir/app.yaml:7:3","schema:values@dir/app.yaml:2:3"]`; got != want {
		t.Errorf("at b's expression:\n got %s\nwant %s", got, want)
	}
	// The preamble's names reach the next document; the $for names sit in
	// the quoted expression.
	if got, want := names(15, 12), `["let:a@dir/app.yaml:9:3","let:b@dir/app.yaml:10:3","schema:env@dir/app.yaml:7:3","for:i@dir/app.yaml:13:13","schema:values@dir/app.yaml:2:3","for:x@dir/app.yaml:13:10"]`; got != want {
		t.Errorf("in the $do:\n got %s\nwant %s", got, want)
	}
	// b's value is an expression, the key before it and a plain string are not.
	if got := [3]bool{s.InExpression(10, 8), s.InExpression(10, 3), s.InExpression(15, 12)}; got != [3]bool{true, false, false} {
		t.Errorf("InExpression at b's value, b's key, n's value: %v", got)
	}
	v := s.Lookup(15, 12, "values")
	j, _ := json.Marshal(v.Schema)
	if got, want := string(j), `{"Type":"object","Description":"The chart's inputs.","Properties":[{"Name":"replicas","Schema":{"Type":"integer","Description":"How many pods.","Properties":null,"Items":null}}],"Items":null}`; got != want {
		t.Errorf("values' schema:\n got %s\nwant %s", got, want)
	}
	j, _ = json.Marshal(s.Includes)
	if got, want := string(j), `[{"Pos":{"File":"dir/app.yaml","Line":17,"Column":17},"Path":"files/one.yaml","File":"dir/files/one.yaml"}]`; got != want {
		t.Errorf("includes:\n got %s\nwant %s", got, want)
	}
}

func TestSymbols_aBrokenDocumentKeepsTheNamesBeforeIt(t *testing.T) {
	s, err := engine.New(engine.DefaultOptions()).Symbols(engine.Source{Text: []byte("$let: {a: 1}\n---\nx: [\n")})
	if err == nil {
		t.Fatal("want the YAML error")
	}
	if got := len(s.Scopes); got == 0 {
		t.Fatal("want the first document's scopes")
	}
}

// A chart's values.schema.json, given by $include, describes its variable.
func TestSymbols_aSchemaFromAnIncludedFileDescribesItsVariable(t *testing.T) {
	dir := t.TempDir()
	schema := `{"type": "object", "description": "Podinfo's values.", "properties": {"replicaCount": {"type": "integer", "description": "Pods."}}}`
	if err := os.WriteFile(filepath.Join(dir, "values.schema.json"), []byte(schema), 0o600); err != nil {
		t.Fatal(err)
	}
	src := engine.Source{Name: filepath.Join(dir, "app.yaml"), Text: []byte("$schema:\n  values: {$include: values.schema.json}\n  other: {$include: missing.json}\nx: 1\n")}
	s, err := engine.New(engine.DefaultOptions()).Symbols(src)
	if err != nil {
		t.Fatal(err)
	}
	j, _ := json.Marshal([]*engine.SchemaInfo{s.Lookup(4, 1, "values").Schema, s.Lookup(4, 1, "other").Schema})
	if got, want := string(j), `[{"Type":"object","Description":"Podinfo's values.","Properties":[{"Name":"replicaCount","Schema":{"Type":"integer","Description":"Pods.","Properties":null,"Items":null}}],"Items":null},null]`; got != want {
		t.Errorf("schemas:\n got %s\nwant %s", got, want)
	}
}

// A template being typed is often broken: a mapping whose $if has no
// $then yet, a misspelt directive. The names in
// scope there are those of the mapping that holds it, and a directive's
// condition is still an expression (reference §4).
func TestSymbols_aBrokenMappingKeepsTheNamesInScope(t *testing.T) {
	src := engine.Source{Name: "app.yaml", Text: []byte(`$let:
  a: "1"
spec:
  $let: {b: "2"}
  $if: "a."
  name: x
list:
  - $for: "x in [1]"
    $do: {n: y}
    $iff: x
`)}
	s, err := engine.New(engine.DefaultOptions()).Symbols(src)
	if err != nil {
		t.Fatal(err)
	}
	names := func(line, col int) string { return namesAt(s, line, col) }
	for _, c := range []struct {
		line, col int
		want      string
		expr      bool
	}{
		{5, 10, `["let:a@app.yaml:2:3","let:b@app.yaml:4:10"]`, true},   // in the $if condition
		{6, 9, `["let:a@app.yaml:2:3","let:b@app.yaml:4:10"]`, false},   // beside it
		{8, 14, `["let:a@app.yaml:2:3","for:x@app.yaml:8:12"]`, true},   // in the $for
		{9, 15, `["let:a@app.yaml:2:3","for:x@app.yaml:8:12"]`, false},  // in the $do
		{10, 11, `["let:a@app.yaml:2:3","for:x@app.yaml:8:12"]`, false}, // in the misspelt $if
	} {
		if got := names(c.line, c.col); got != c.want {
			t.Errorf("at %d:%d:\n got %s\nwant %s", c.line, c.col, got, c.want)
		}
		if got := s.InExpression(c.line, c.col); got != c.expr {
			t.Errorf("InExpression(%d, %d) = %v, want %v", c.line, c.col, got, c.expr)
		}
	}
}

// Whatever the template, broken or hostile, the symbols are read without
// a panic, in the order of their positions, each in the text (or just
// past its end, where an empty last document stands).
func FuzzSymbols(f *testing.F) {
	f.Add("$let: {a: \"1\"}\nx: {$if: a, $then: 1}\n")
	f.Add("$overlay: doc.kind == 'A'\n$let: {n: \"1\"}\nxs:\n- $match: item == n\n  v: 1\n")
	f.Add("a: &a {$for: \"x in [1]\", $do: *a}\nb: [*a, *a]\n")
	f.Add("$schema: {v: {$include: x.json}, w: {type: obj}}\n$let: {a: .NaN}\n---\n$chart: c\n$if: true\n")
	f.Add("x:\n  $if: \"a.\"\n  $fo: 1\n---\n$transform: {namespace: a}\n$let: {b: \"2\"}\n")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		s, _ := engine.New(engine.DefaultOptions()).Symbols(engine.Source{Name: "f.yaml", Text: []byte(text)})
		breaks := strings.ReplaceAll(text, "\r\n", "\n")
		lines := strings.Count(breaks, "\n") + strings.Count(breaks, "\r") + 1
		for i, sc := range s.Scopes {
			if sc.Pos.Line < 1 || sc.Pos.Line > lines+1 { // an empty last document is past the end
				t.Fatalf("a scope at line %d of %d", sc.Pos.Line, lines)
			}
			if i > 0 && (sc.Pos.Line < s.Scopes[i-1].Pos.Line || sc.Pos.Line == s.Scopes[i-1].Pos.Line && sc.Pos.Column < s.Scopes[i-1].Pos.Column) {
				t.Fatalf("scope %d at %s comes after %s", i, sc.Pos, s.Scopes[i-1].Pos)
			}
			_ = s.At(sc.Pos.Line, sc.Pos.Column)
			_ = s.InExpression(sc.Pos.Line, sc.Pos.Column)
		}
	})
}

// namesAt gives the names in scope at line and col of s, as
// "KIND:NAME@POS", in JSON.
func namesAt(s *engine.Symbols, line, col int) string {
	var out []string
	for _, b := range s.At(line, col) {
		out = append(out, b.Kind+":"+b.Name+"@"+b.Pos.String())
	}
	j, _ := json.Marshal(out)
	return string(j)
}
