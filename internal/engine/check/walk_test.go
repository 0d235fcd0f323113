package check

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/txtar"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/directive"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/loader"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/options"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/overlay"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
)

// languageTable is the whole language, as the engine assembles it.
func languageTable() *tree.Table {
	return tree.NewTable(overlay.CompileEditList, directive.Schema(), directive.Let(), directive.Assert(),
		directive.If(), directive.For(), directive.Eval(), directive.KeyValue(), directive.Include(),
		overlay.Overlay(), overlay.ListEdits(), overlay.Transform(), directive.Chart())
}

// checkBlanked checks text as Check does, except that once each document
// is compiled, every directive key of its YAML is renamed to blank, when
// blank is set: what check then reports it read from the compiled tree.
func checkBlanked(e *walk.Engine, text []byte, blank bool) string {
	ck := &checker{ctx: context.Background(), e: e, seen: map[string]bool{}}
	fr := &diag.Frame{File: "template.yaml", Dir: ".", Real: "template.yaml"}
	ck.seen[fr.Real] = true
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var preamble []string
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) || err != nil {
			break
		}
		n, cut := ck.document(fr, &doc)
		ck.cut = cut
		if blank {
			blankDirectiveKeys(e.Table(), &doc, map[*yaml.Node]bool{})
		}
		preamble = ck.walkDocument(fr, n, preamble)
	}
	sortByPosition(ck.problems)
	var b strings.Builder
	for _, p := range ck.problems {
		if p.Warning {
			b.WriteString("warning ")
		}
		b.WriteString(p.Err.Error() + "\n")
	}
	return b.String()
}

// blankDirectiveKeys renames every key of the mappings below n that the
// table holds as a directive.
func blankDirectiveKeys(t *tree.Table, n *yaml.Node, seen map[*yaml.Node]bool) {
	if seen[n] {
		return
	}
	seen[n] = true
	for i, c := range n.Content {
		if _, ok := t.Lookup(c.Value); ok && n.Kind == yaml.MappingNode && i%2 == 0 {
			c.Value = "blanked"
		}
		blankDirectiveKeys(t, c, seen)
	}
}

// Check reads a template from the tree the compiler builds, not from the
// YAML of its directives: with every directive key of each document
// renamed once the document is compiled, check reports the same problems,
// word for word, over the golden corpus (reference §2: a directive is a
// $-key the table holds).
func TestCheck_readsTheCompiledTreeNotTheDirectiveKeys(t *testing.T) {
	table := languageTable()
	var cases, reported int
	err := filepath.WalkDir("../testdata/golden", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".txtar") {
			return err
		}
		ar, err := txtar.ParseFile(p)
		if err != nil {
			return err
		}
		files := fstest.MapFS{}
		var text []byte
		for _, f := range ar.Files {
			files[f.Name] = &fstest.MapFile{Data: f.Data}
			if f.Name == "template.yaml" {
				text = f.Data
			}
		}
		if text == nil || tree.CheckText(text) != nil {
			return nil
		}
		opts := options.Default()
		opts.Loader = loader.FSLoader{FS: files}
		e := walk.New(opts, table, overlay.ApplyNamespace)
		want := checkBlanked(e, text, false)
		if got := checkBlanked(e, text, true); got != want {
			t.Errorf("%s: with the directive keys renamed after compiling, check reports\n%s\nwant\n%s", p, got, want)
		}
		cases++
		reported += strings.Count(want, "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cases < 400 || reported < 200 {
		t.Fatalf("%d cases with %d lines of problems checked, want the corpus's 400 and more, with 200 lines and more", cases, reported)
	}
}

// The inputs a render needs, the files a template includes literally and
// the check of a $chart document's $values read the compiled tree too:
// with every directive key renamed once a document is compiled, they
// give the same, word for word (reference §2, §4 $schema, §4 $include,
// §11 `$chart`).
func TestCheck_readsInputsIncludesAndValuesNotTheDirectiveKeys(t *testing.T) {
	text := []byte(`$schema: {region: {type: string}}
$let: {zone: "region + '-a'"}
---
$schema:
  name: {type: string}
  zone: {type: string}
  size: {type: integer, default: 1}
items:
  $for: "i in [1, 2]"
  $do:
    $schema: {i: {type: integer}, extra: {type: string}}
    part: {$include: parts/item.yaml}
---
$chart: c
$let: {n: "3"}
$values:
  replicaCont: 2
  replicaCount: {$eval: "${{ n }}"}
  image: {$include: "${{ name }}.yaml"}
`)
	files := fstest.MapFS{
		"c/Chart.yaml":       {Data: []byte("apiVersion: v2\nname: c\nversion: 0.1.0\n")},
		"c/values.yaml":      {Data: []byte("replicaCount: 1\nimage: {}\n")},
		"c/templates/x.yaml": {Data: []byte("")},
		"parts/item.yaml":    {Data: []byte("a: 1\n")},
	}
	table := languageTable()
	read := func(blank bool) string {
		in := inputs{t: table}
		var preamble, included []string
		dec := yaml.NewDecoder(bytes.NewReader(text))
		for {
			var doc yaml.Node
			if err := dec.Decode(&doc); err != nil {
				break
			}
			n, _ := compileExcised(table, &doc)
			if blank {
				blankDirectiveKeys(table, &doc, map[*yaml.Node]bool{})
			}
			preamble = in.document(n, preamble)
			included = literalIncludes(table, n, "dir", included)
		}
		return "inputs " + strings.Join(in.missing, " ") + "\nincludes " + strings.Join(included, " ") + "\n"
	}
	want := "inputs region name extra\nincludes " + filepath.Join("dir", "parts", "item.yaml") + "\n"
	for _, blank := range []bool{false, true} {
		if got := read(blank); got != want {
			t.Errorf("blanked %v: got\n%s\nwant\n%s", blank, got, want)
		}
	}
	opts := options.Default()
	opts.Loader = loader.FSLoader{FS: files}
	e := walk.New(opts, table, overlay.ApplyNamespace)
	wantCheck := "warning template.yaml:17:3: $values.replicaCont: the chart's values.yaml has no key replicaCont: Helm ignores it without a word; did you mean replicaCount?\n"
	for _, blank := range []bool{false, true} {
		if got := checkBlanked(e, text, blank); got != wantCheck {
			t.Errorf("blanked %v: check reports\n%s\nwant\n%s", blank, got, wantCheck)
		}
	}
}
