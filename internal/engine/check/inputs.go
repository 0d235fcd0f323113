package check

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"sort"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
	"go.yaml.in/yaml/v3"
)

// InputsWithoutDefault gives the inputs the template in src declares with
// a $schema and no default that declared does not say are given: the
// variables a render needs from its caller. `celyaml check` renders a
// template when this is empty, so that it finds what a render finds. A
// $schema entry for a name that an enclosing $let, $for or $schema
// already binds checks that binding and is no input. The files the
// template includes are not read: their $schema checks what the includer
// passes. A template that does not parse gives nil; Check reports why.
// It reads each document as check does, compiled (compileExcised).
func InputsWithoutDefault(t *tree.Table, src walk.Source, declared func(string) bool) []string {
	if tree.CheckText(src.Text) != nil {
		return nil
	}
	var docs []tree.Node
	dec := yaml.NewDecoder(bytes.NewReader(src.Text))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return inputsOf(t, docs, declared)
		}
		if err != nil {
			return nil
		}
		n, _ := compileExcised(t, &doc)
		docs = append(docs, n)
	}
}

// inputsOf gives the inputs without default of a template's compiled
// documents docs, in order (InputsWithoutDefault).
func inputsOf(t *tree.Table, docs []tree.Node, declared func(string) bool) []string {
	in := inputs{t: t, declared: declared}
	var preamble []string
	for _, n := range docs {
		preamble = in.document(n, preamble)
	}
	return in.missing
}

// document gathers the inputs of the compiled document n, with the names
// of preamble in scope, and gives the names in scope for the documents
// after it (reference §1).
func (in *inputs) document(n tree.Node, preamble []string) []string {
	in.node(n, preamble, 0)
	if !tree.IsPreamble(n) {
		return preamble
	}
	return newMapping(n).scope(in.t, preamble)
}

// inputs gathers the $schema entries no enclosing scope binds and that
// have no default.
type inputs struct {
	t        *tree.Table
	declared func(string) bool
	missing  []string
}

// node gathers the inputs of compiled node n and below, with the names of
// scope in scope. A constant holds no directive.
func (in *inputs) node(n tree.Node, scope []string, depth int) {
	if depth > 10000 {
		return // the YAML parser's own bound; deeper is refused anyway
	}
	switch t := n.(type) {
	case *tree.MapNode, tree.Described:
		in.mapping(newMapping(t), scope, depth)
	default:
		for _, c := range tree.Children(n) {
			in.node(c, scope, depth+1)
		}
	}
}

// mapping gathers the inputs of one mapping's $schema, whose names its
// own directives do not bind for it, then those below it, in template
// order, which see the names the mapping binds.
func (in *inputs) mapping(mp *mapping, scope []string, depth int) {
	type child struct {
		at *yaml.Node
		n  tree.Node
	}
	var below []child
	for _, d := range mp.dirs {
		if described(in.t, d.Name).Declares {
			for _, b := range d.Binds {
				if slices.Contains(scope, b.Name) || (in.declared != nil && in.declared(b.Name)) || hasDefault(b.Value) || slices.Contains(in.missing, b.Name) {
					continue
				}
				in.missing = append(in.missing, b.Name)
			}
		}
		for _, b := range d.Bodies {
			if b.Beside {
				continue // its directives and entries are mp's
			}
			at := b.Key
			if at == nil {
				at = d.Key
			}
			below = append(below, child{at, b.Node})
		}
	}
	for _, e := range mp.entries {
		below = append(below, child{e.Key, e.Val})
	}
	sort.SliceStable(below, func(a, b int) bool { return keyBefore(below[a].at, below[b].at) })
	inner := mp.scope(in.t, scope)
	for _, c := range below {
		in.node(c.n, inner, depth+1)
	}
}

// hasDefault reports whether a schema, written at s, has a top-level
// default.
func hasDefault(s *yaml.Node) bool {
	if s == nil {
		return false
	}
	s = tree.Deref(s)
	for i := 0; s.Kind == yaml.MappingNode && i+1 < len(s.Content); i += 2 {
		if s.Content[i].Value == "default" {
			return true
		}
	}
	return false
}
