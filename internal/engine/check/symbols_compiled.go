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

// cuts is what compiling a document excised from it, for what reads the
// excised YAML: the symbols, and check of a chart's $values.
type cuts struct {
	// pairs are the keys and values excised from a mapping, in order.
	pairs map[*yaml.Node][]*yaml.Node
	// nulls are the nodes replaced by a null, by that null.
	nulls map[*yaml.Node]*yaml.Node
}

// newCuts gives an empty record of excisions.
func newCuts() *cuts {
	return &cuts{pairs: map[*yaml.Node][]*yaml.Node{}, nulls: map[*yaml.Node]*yaml.Node{}}
}

// removed notes the keys and values pairs excised from mapping m; a nil
// cut notes nothing.
func (cut *cuts) removed(m *yaml.Node, pairs []*yaml.Node) {
	if cut != nil {
		cut.pairs[m] = append(cut.pairs[m], pairs...)
	}
}

// nulled notes that the null null took the place of orig; a nil cut notes
// nothing.
func (cut *cuts) nulled(null, orig *yaml.Node) {
	if cut != nil {
		cut.nulls[null] = orig
	}
}

// compileKept compiles doc as compileExcised does and gives what it
// excised.
func compileKept(t *tree.Table, doc *yaml.Node) (tree.Node, *cuts) {
	cut := newCuts()
	n, _ := compileRecording(t, doc, cut)
	return n, cut
}
