package check

import (
	"bytes"
	"errors"
	"io"
	"slices"

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
func InputsWithoutDefault(t *tree.Table, src walk.Source, declared func(string) bool) []string {
	if tree.CheckText(src.Text) != nil {
		return nil
	}
	var missing []string
	dec := yaml.NewDecoder(bytes.NewReader(src.Text))
	var preamble []string
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return missing
		}
		if err != nil {
			return nil
		}
		for _, root := range doc.Content {
			missing = schemaInputs(t, root, preamble, declared, missing, 0)
			if root.Kind == yaml.MappingNode && preludeOnly(t, root) {
				preamble = mappingScope(t, root, preamble)
			}
		}
	}
}

// schemaInputs adds to missing the $schema entries of n and below that no
// enclosing scope binds and that have no default.
func schemaInputs(t *tree.Table, n *yaml.Node, scope []string, declared func(string) bool, missing []string, depth int) []string {
	if depth > 10000 {
		return missing // the YAML parser's own bound; deeper is refused anyway
	}
	switch n.Kind {
	case yaml.SequenceNode:
		for _, c := range n.Content {
			missing = schemaInputs(t, c, scope, declared, missing, depth+1)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !described(t, n.Content[i].Value).Declares {
				continue
			}
			s := tree.Deref(n.Content[i+1])
			for j := 0; s.Kind == yaml.MappingNode && j+1 < len(s.Content); j += 2 {
				name := s.Content[j].Value
				if slices.Contains(scope, name) || (declared != nil && declared(name)) || hasDefault(s.Content[j+1]) || slices.Contains(missing, name) {
					continue
				}
				missing = append(missing, name)
			}
		}
		inner := mappingScope(t, n, scope)
		for i := 1; i < len(n.Content); i += 2 {
			missing = schemaInputs(t, n.Content[i], inner, declared, missing, depth+1)
		}
	}
	return missing
}

// hasDefault reports whether a schema has a top-level default.
func hasDefault(s *yaml.Node) bool {
	s = tree.Deref(s)
	for i := 0; s.Kind == yaml.MappingNode && i+1 < len(s.Content); i += 2 {
		if s.Content[i].Value == "default" {
			return true
		}
	}
	return false
}
