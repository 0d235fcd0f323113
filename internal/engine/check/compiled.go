package check

import (
	"slices"
	"sort"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"go.yaml.in/yaml/v3"
)

// The readers of a template that do not render it (check, its type
// checker, the symbols) read the tree the compiler builds, as the render
// does. The compiler stops at a template's first error; a reader goes on:
// compileExcised removes what holds each error and compiles again, so a
// template with errors still gives a compiled tree of what is sound.

// compileExcised compiles doc with table t until it compiles, each error
// excising the entry of the mapping that holds it (with the directives
// that belong with it) or else the innermost mapping or sequence that
// holds it, in doc itself. It gives the compiled tree and the errors met
// on the way, in the order met. Past maxProblemsPerDocument errors, or
// at an error it cannot excise so (one in the root of an overlay, whose
// entries depend on each other), it reports no more and excises quietly,
// an entry at a time wherever it stands, so that what is sound is still
// read; the tree is nil when doc does not compile even so.
func compileExcised(t *tree.Table, doc *yaml.Node) (tree.Node, []*tree.CompileError) {
	return compileRecording(t, doc, nil)
}

// compileRecording is compileExcised, noting in cut, when it is not nil,
// what each excision took (symbols_compiled.go).
func compileRecording(t *tree.Table, doc *yaml.Node, cut *cuts) (tree.Node, []*tree.CompileError) {
	var errs []*tree.CompileError
	quiet := false
	for range 2 * maxProblemsPerDocument {
		c := t.NewCompiler()
		c.KeepYAML = true // the plain strings and positions of constants are read
		n, cerr := c.Document(doc)
		if cerr == nil {
			return n, errs
		}
		if !quiet {
			errs = append(errs, cerr)
		}
		if cerr.Node == nil {
			return nil, errs
		}
		if !excisePair(t, doc, cerr.Node, quiet, cut) && !excise(doc, cerr.Node, cut) {
			if quiet || !excisePair(t, doc, cerr.Node, true, cut) {
				return nil, errs
			}
			quiet = true
		}
		quiet = quiet || len(errs) == maxProblemsPerDocument
	}
	return nil, errs
}

// mapping is one YAML mapping as compiled: the directives that stand in
// it, described, and its regular entries. A compiled mapping gives its
// preludes and producers; a document directive ($overlay, $transform,
// $chart) or a list edit gives itself and what stands beside it (a body
// marked Beside), which is the same mapping.
type mapping struct {
	dirs    []tree.Description
	nodes   []tree.Node     // the compiled directive of each description
	entries []tree.MapEntry // regular entries
	plain   []*tree.ConstNode
}

// newMapping is the mapping of n, a compiled mapping or a described
// directive, its directives in template order.
func newMapping(n tree.Node) *mapping {
	mp := &mapping{}
	switch t := n.(type) {
	case *tree.MapNode:
		mp.add(t)
	case tree.Described:
		mp.addDirective(t)
		mp.sort(1) // its names first, then those beside it
		return mp
	}
	mp.sort(0)
	return mp
}

// add adds the directives and regular entries of compiled mapping m.
func (mp *mapping) add(m *tree.MapNode) {
	mp.dirs = slices.Grow(mp.dirs, len(m.Preludes)+len(m.Prods))
	mp.nodes = slices.Grow(mp.nodes, len(m.Preludes)+len(m.Prods))
	mp.entries = slices.Grow(mp.entries, m.NRegular)
	for _, p := range m.Preludes {
		if d, ok := p.(tree.Described); ok {
			mp.addDirective(d)
		}
	}
	for _, p := range m.Prods {
		if d, ok := p.(tree.Described); ok {
			mp.addDirective(d)
		}
	}
	for _, e := range m.Entries {
		if e.Prod < 0 {
			mp.entries = append(mp.entries, e)
		}
	}
}

// addDirective adds d, and the mapping that stands beside it.
func (mp *mapping) addDirective(d tree.Described) {
	desc := d.Describe()
	mp.dirs = append(mp.dirs, desc)
	mp.nodes = append(mp.nodes, d)
	for _, b := range desc.Bodies {
		if !b.Beside {
			continue
		}
		switch t := b.Node.(type) {
		case *tree.MapNode:
			mp.add(t)
		case *tree.ConstNode:
			mp.plain = append(mp.plain, t) // regular entries only, constant
		}
	}
}

// sort puts the directives from index from on in template order.
func (mp *mapping) sort(from int) {
	if len(mp.dirs)-from < 2 {
		return
	}
	idx := make([]int, len(mp.dirs))
	for i := range idx {
		idx[i] = i
	}
	rest := idx[from:]
	sort.SliceStable(rest, func(a, b int) bool { return keyBefore(mp.dirs[rest[a]].Key, mp.dirs[rest[b]].Key) })
	dirs, nodes := make([]tree.Description, len(idx)), make([]tree.Node, len(idx))
	for i, j := range idx {
		dirs[i], nodes[i] = mp.dirs[j], mp.nodes[j]
	}
	mp.dirs, mp.nodes = dirs, nodes
}

// keyBefore orders two nodes by where they are written.
func keyBefore(a, b *yaml.Node) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}

// names gives the names the directives of the mapping bind in all of it,
// in template order (scoped.go).
func (mp *mapping) names(t *tree.Table) []string {
	return innerScope[string](t, checkNames{}, mp, nil)
}

// scope is outer and the names the mapping binds (scoped.go): outer
// itself when it binds none, else a copy.
func (mp *mapping) scope(t *tree.Table, outer []string) []string {
	return innerScope[string](t, checkNames{}, mp, outer)
}
