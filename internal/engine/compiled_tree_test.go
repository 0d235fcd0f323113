package engine

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/txtar"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/segment"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// The compiled tree says what each directive holds (tree.Described), so
// that the readers that do not render a template can read the tree the
// render walks. Over every YAML file of the golden corpus that compiles,
// every compiled node is plain (a constant, a sequence, a mapping), a
// described directive, or a holder of them, and the expressions the
// compiled tree holds are those the directive table's descriptions find
// in the YAML: the same text at the same position.
func TestCompiledTree_describesWhatTheTableDescribes(t *testing.T) {
	files := 0
	for _, p := range CasePaths(t, goldenDir) {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, f := range ar.Files {
			if !strings.HasSuffix(f.Name, ".yaml") || strings.HasPrefix(f.Name, "out") {
				continue
			}
			for i, doc := range decodeAll(f.Data) {
				n, cerr := readerCompiler().Document(doc)
				if cerr != nil {
					continue // check reads a template with errors its own way
				}
				files++
				checkDescribed(t, p+":"+f.Name+" document "+tree.Itoa(i), n, doc)
			}
		}
	}
	t.Logf("%d documents", files)
	if files < 400 {
		t.Fatalf("%d documents compiled, want the corpus's 400 and more", files)
	}
}

// readerCompiler is a compiler as the readers that do not render a
// template use it: keeping the YAML below constants and schemas.
func readerCompiler() *tree.Compiler {
	c := table.NewCompiler()
	c.KeepYAML = true
	return c
}

// checkDescribed holds the compiled document n of doc to what it says
// of itself: every node plain, described or a holder, and the
// expressions those found by the table's descriptions.
func checkDescribed(t *testing.T, where string, n tree.Node, doc *yaml.Node) {
	t.Helper()
	tree.Visit(n, func(c tree.Node) bool {
		switch c.(type) {
		case *tree.ConstNode, *tree.SeqNode, *tree.MapNode, tree.Described, tree.Holder:
		default:
			t.Errorf("%s: compiled node %T says nothing of what it holds", where, c)
		}
		return true
	})
	got := exprsAt(tree.Expressions(n))
	want := describedExprs(doc.Content[0])
	if !slices.Equal(got, want) {
		t.Errorf("%s: the compiled tree holds the expressions\n%q\nthe table's descriptions find\n%q", where, got, want)
	}
	checkEntriesAndBodies(t, where, n, doc)
}

// checkEntriesAndBodies holds what each compiled directive says of its
// entries and bodies to the YAML: a variable a $schema entry declares
// gives the node of its schema when the compiler keeps the YAML, a body
// under a key says what the key says, and only a document directive or a
// list edit has a body beside it, the rest of its own mapping.
func checkEntriesAndBodies(t *testing.T, where string, n tree.Node, doc *yaml.Node) {
	t.Helper()
	valueOf := map[*yaml.Node]*yaml.Node{}
	var index func(n *yaml.Node)
	index = func(n *yaml.Node) {
		for i, c := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 0 {
				valueOf[tree.Deref(c)] = n.Content[i+1]
			}
			if c.Kind != yaml.AliasNode {
				index(c)
			}
		}
	}
	index(doc)
	tree.Visit(n, func(c tree.Node) bool {
		d, ok := c.(tree.Described)
		if !ok {
			return true
		}
		desc := d.Describe()
		dir, _ := table.Lookup(desc.Name)
		for _, b := range desc.Binds {
			if b.Value != valueOf[b.Node] && (b.Value != nil || dir.Declares) {
				t.Errorf("%s: %s binds %s to the value at %v, want the entry's value", where, desc.Name, b.Name, b.Value)
			}
		}
		for _, b := range desc.Bodies {
			if b.Key != nil && b.Name != b.Key.Value {
				t.Errorf("%s: a body of %s names itself %q under the key %q", where, desc.Name, b.Name, b.Key.Value)
			}
			if b.Beside && dir.Kind != tree.KindOverlay && dir.Kind != tree.KindEdit {
				t.Errorf("%s: %s has a body beside it, which only a document directive or a list edit has", where, desc.Name)
			}
		}
		return true
	})
}

// FuzzCompiledTree holds any template that compiles to what its compiled
// tree says of itself, as TestCompiledTree_describesWhatTheTableDescribes
// does for the golden cases.
func FuzzCompiledTree(f *testing.F) {
	for _, s := range fuzzSeedTemplates(f) {
		f.Add(s.template)
	}
	f.Fuzz(func(t *testing.T, tpl []byte) {
		if len(tpl) > 1<<14 || tree.CheckText(tpl) != nil {
			return
		}
		for i, doc := range decodeAll(tpl) {
			if n, cerr := readerCompiler().Document(doc); cerr == nil {
				checkDescribed(t, "document "+tree.Itoa(i), n, doc)
			}
		}
	})
}

// decodeAll gives the documents of a YAML stream, up to its first error.
func decodeAll(text []byte) []*yaml.Node {
	var out []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(text))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) || err != nil || len(doc.Content) == 0 {
			return out
		}
		out = append(out, &doc)
	}
}

// exprsAt writes each expression as LINE:COLUMN TEXT, sorted, once.
func exprsAt(xs []*tree.ExprRef) []string {
	var out []string
	for _, x := range xs {
		out = append(out, tree.Itoa(x.Node.Line)+":"+tree.Itoa(x.Node.Column)+" "+x.Text)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// describedExprs finds the expressions of n as the directive table's
// descriptions say where they stand, in the YAML alone.
func describedExprs(n *yaml.Node) []string {
	var out []string
	add := func(v *yaml.Node, text string) {
		out = append(out, tree.Itoa(v.Line)+":"+tree.Itoa(v.Column)+" "+text)
	}
	var visit func(n *yaml.Node)
	visit = func(n *yaml.Node) {
		if n.Kind == yaml.AliasNode {
			return
		}
		if n.Kind != yaml.MappingNode {
			for _, c := range n.Content {
				visit(c)
			}
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			d, _ := table.Lookup(n.Content[i].Value)
			v := tree.Deref(n.Content[i+1])
			s, isStr := tree.StringScalar(v)
			switch d.Exprs {
			case tree.ExprBare, tree.ExprBareList:
				if isStr {
					add(v, s)
				}
				for _, c := range v.Content {
					if cs, ok := tree.StringScalar(c); ok && v.Kind == yaml.SequenceNode {
						add(tree.Deref(c), cs)
					}
				}
			case tree.ExprLoop:
				if m := tree.ForSyntax.FindStringSubmatchIndex(s); isStr && m != nil {
					add(v, s[m[1]:])
				}
			case tree.ExprEntries:
				for j := 0; v.Kind == yaml.MappingNode && j+1 < len(v.Content); j += 2 {
					if es, ok := tree.StringScalar(v.Content[j+1]); ok {
						add(tree.Deref(v.Content[j+1]), es)
					}
				}
			case tree.ExprSegments:
				segs, _ := segment.Scan(s)
				for _, sg := range segs {
					if isStr && sg.Expr {
						add(v, sg.Text)
					}
				}
			}
			if !d.Declares {
				visit(n.Content[i+1])
			}
		}
	}
	visit(n)
	slices.Sort(out)
	return slices.Compact(out)
}

// describeAll writes what Visit meets below the root of text, one line
// per described directive: NAME@LINE:COL, its expressions, the names it
// binds and the keys of its bodies.
func describeAll(t *testing.T, text string) string {
	t.Helper()
	docs := decodeAll([]byte(text))
	var b strings.Builder
	for _, doc := range docs {
		n, cerr := readerCompiler().Document(doc)
		if cerr != nil {
			t.Fatalf("compile: %s", cerr.Msg)
		}
		tree.Visit(n, func(c tree.Node) bool {
			d, ok := c.(tree.Described)
			if !ok {
				return true
			}
			desc := d.Describe()
			b.WriteString(desc.Name + "@" + tree.Itoa(desc.Key.Line) + ":" + tree.Itoa(desc.Key.Column))
			for _, x := range desc.Exprs {
				b.WriteString(" expr " + tree.Itoa(x.Node.Line) + ":" + tree.Itoa(x.Node.Column) + "+" + tree.Itoa(x.Off) + " " + tree.Quote(x.Text))
			}
			for _, n := range desc.Binds {
				b.WriteString(" binds " + n.Name + "@" + tree.Itoa(n.Node.Line) + ":" + tree.Itoa(n.Node.Column))
				if n.Value != nil {
					b.WriteString("=" + tree.Itoa(n.Value.Line) + ":" + tree.Itoa(n.Value.Column))
				}
			}
			for _, body := range desc.Bodies {
				switch {
				case body.Beside:
					b.WriteString(" beside")
				case body.Key == nil:
					b.WriteString(" body")
				default:
					b.WriteString(" body " + body.Name + "@" + tree.Itoa(body.Key.Line) + ":" + tree.Itoa(body.Key.Column))
				}
			}
			b.WriteString("\n")
			return true
		})
	}
	return b.String()
}

// Each compiled directive gives its key, its expressions with their
// positions, the names it binds where they are bound, and its bodies
// (reference §4).
func TestCompiledTree_directivesDescribeThemselves(t *testing.T) {
	got := describeAll(t, `$let:
  a: "1"
  b: {x: 1}
$assert: a > 0
$msg: "a is ${{ a }}"
items:
  $for: "k, v in b"
  $do:
    $if: v > 0
    $then: {$eval: "${{ k }}"}
    $else:
      $key: k
      $value: v
inc:
  $include: part.yaml
  $with: {n: 1}
`)
	want := `$let@1:1 expr 2:6+0 "1" binds a@2:3 binds b@3:3 body b@3:3
$assert@4:1 expr 4:10+0 "a > 0" expr 5:7+8 " a "
$for@7:3 expr 7:9+8 "b" binds k@7:10 binds v@7:13 body $do@8:3
$if@9:5 expr 9:10+0 "v > 0" body $then@10:5 body $else@11:5
$eval@10:13 expr 10:20+3 " k "
$key@12:7 body body $value@13:7
$include@15:3 binds n@16:11 body body n@16:11
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// An overlay describes its condition, the doc it binds and its patch; a
// list edit of the patch, the item it binds (reference §8).
func TestCompiledTree_overlaysDescribeThemselves(t *testing.T) {
	got := describeAll(t, `$overlay: doc.kind == 'Deployment'
$let: {n: "1"}
spec:
  containers:
  - $match: item.name == 'app'
    image: x
  - $append: {name: side}
`)
	want := `$overlay@1:1 expr 1:11+0 "doc.kind == 'Deployment'" binds doc@1:1 beside
$let@2:1 expr 2:11+0 "1" binds n@2:8
$match@5:5 expr 5:13+0 "item.name == 'app'" binds item@5:5 beside
$append@7:5 body
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A $schema binds each variable to the node of its schema; a transform's
// preludes stand beside it, in its mapping (reference §4 $schema,
// reference §10).
func TestCompiledTree_schemasAndTransformsDescribeThemselves(t *testing.T) {
	got := describeAll(t, `$schema:
  env: string
  port: {type: integer}
---
$transform:
  labels: {team: sre}
$let: {n: "1"}
`)
	want := `$schema@1:1 binds env@2:3=2:8 binds port@3:3=3:9
$transform@5:1 beside body
$let@7:1 expr 7:11+0 "1" binds n@7:8
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Visit meets a node that aliases share once: a template of aliases of
// aliases, small to write and large once expanded, is read in steps
// proportional to what is written.
func TestCompiledTree_visitMeetsSharedNodesOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 {$if: 'true', $then: x}\n")
	for i := 1; i <= 30; i++ {
		b.WriteString("a" + tree.Itoa(i) + ": &a" + tree.Itoa(i) + " [*a" + tree.Itoa(i-1) + ", *a" + tree.Itoa(i-1) + "]\n")
	}
	doc := decodeAll([]byte(b.String()))[0]
	n, cerr := table.NewCompiler().Document(doc)
	if cerr != nil {
		t.Fatalf("compile: %s", cerr.Msg)
	}
	visits := 0
	tree.Visit(n, func(tree.Node) bool { visits++; return true })
	if visits > 200 {
		t.Fatalf("Visit met %d nodes, want each shared node once (under 200)", visits)
	}
}
