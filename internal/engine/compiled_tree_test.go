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
				n, cerr := table.NewCompiler().Document(doc)
				if cerr != nil {
					continue // check reads a template with errors its own way
				}
				files++
				where := p + ":" + f.Name + " document " + tree.Itoa(i)
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
			}
		}
	}
	t.Logf("%d documents", files)
	if files < 400 {
		t.Fatalf("%d documents compiled, want the corpus's 400 and more", files)
	}
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
