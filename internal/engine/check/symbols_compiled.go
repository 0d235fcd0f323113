package check

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"go.yaml.in/yaml/v3"
)

// The symbols read the compiled tree, as check does (compiled.go), each
// constant with its YAML, whose keys and scalars an editor points into;
// and what an error excised is kept aside, so that
// a template being typed, broken here and there, still gives the names
// in scope where it is broken.

// cuts is what compiling a document for its symbols excised from it.
type cuts struct {
	// pairs are the keys and values excised from a mapping, in order.
	pairs map[*yaml.Node][]*yaml.Node
	// nulls are the nodes replaced by a null, by that null.
	nulls map[*yaml.Node]*yaml.Node
}

// compileKept compiles doc as compileExcised does and gives what it
// excised.
func compileKept(t *tree.Table, doc *yaml.Node) (tree.Node, cuts) {
	cut := cuts{pairs: map[*yaml.Node][]*yaml.Node{}, nulls: map[*yaml.Node]*yaml.Node{}}
	n, _ := compileRecording(t, doc, &cut)
	return n, cut
}

// contents gives the content of every mapping and sequence below n, not
// through an alias, as copies.
func contents(n *yaml.Node, out map[*yaml.Node][]*yaml.Node) map[*yaml.Node][]*yaml.Node {
	if n.Kind == yaml.AliasNode || n.Kind == yaml.ScalarNode {
		return out
	}
	if _, ok := out[n]; ok {
		return out
	}
	out[n] = append([]*yaml.Node(nil), n.Content...)
	for _, c := range n.Content {
		contents(c, out)
	}
	return out
}

// note records what an excision took from doc, its nodes' contents
// before given.
func (cut cuts) note(doc *yaml.Node, before map[*yaml.Node][]*yaml.Node) {
	for n, now := range contents(doc, map[*yaml.Node][]*yaml.Node{}) {
		was, ok := before[n]
		if !ok {
			continue
		}
		if len(now) < len(was) {
			kept := make(map[*yaml.Node]bool, len(now))
			for _, c := range now {
				kept[c] = true
			}
			for _, c := range was {
				if !kept[c] {
					cut.pairs[n] = append(cut.pairs[n], c)
				}
			}
			continue
		}
		for i := range now {
			if i < len(was) && now[i] != was[i] {
				cut.nulls[now[i]] = was[i]
			}
		}
	}
}
