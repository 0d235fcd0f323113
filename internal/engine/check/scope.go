package check

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// One scope model for check, its type checker and the symbol reader: the
// names the directives of a mapping bind in it, as their descriptions in
// the directive table say (reference §4, §8). Check keeps the names,
// the symbol reader the bindings with their positions and schemas.

// bound gives the names the directives of mapping n, of table t, bind in the whole of
// n, in key order, each with where it is bound in file: the entries of
// $schema and $let, the names of $for, an overlay's doc, a list edit's
// item. Of a preamble, only the preludes' names, which the later
// documents see (reference §1). schemaOf, when not nil, reads what a
// declaring directive's entry says of its variable.
func bound(t *tree.Table, n *yaml.Node, file string, preamble bool, schemaOf func(*yaml.Node) *SchemaInfo) []*Binding {
	var out []*Binding
	pos := func(n *yaml.Node) diag.Pos { return diag.Pos{File: file, Line: n.Line, Column: n.Column} }
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], symDeref(n.Content[i+1])
		if v == nil {
			continue
		}
		d := described(t, k.Value)
		if preamble && d.Kind != tree.KindPrelude {
			continue
		}
		switch {
		case d.Bound == tree.BindEntries && v.Kind == yaml.MappingNode:
			for j := 0; j+1 < len(v.Content); j += 2 {
				b := &Binding{Name: v.Content[j].Value, Kind: d.BoundKind, Pos: pos(v.Content[j])}
				if d.Declares && schemaOf != nil {
					b.Schema = schemaOf(v.Content[j+1])
				}
				out = append(out, b)
			}
		case d.Bound == tree.BindFixed:
			for _, name := range d.BoundNames {
				out = append(out, &Binding{Name: name, Kind: d.BoundKind, Pos: pos(k)})
			}
		case d.Bound == tree.BindLoop && v.Kind == yaml.ScalarNode:
			m := tree.ForSyntax.FindStringSubmatchIndex(v.Value)
			if m == nil {
				continue
			}
			shift := 0
			if v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
				shift = 1
			}
			for g := 1; g <= 2; g++ {
				if m[2*g] < 0 {
					continue
				}
				col := v.Column + shift + len([]rune(v.Value[:m[2*g]]))
				if strings.Contains(v.Value[:m[2*g]], "\n") {
					col = v.Column
				}
				out = append(out, &Binding{Name: v.Value[m[2*g]:m[2*g+1]], Kind: d.BoundKind, Pos: diag.Pos{File: file, Line: v.Line, Column: col}})
			}
		}
	}
	return out
}

// besideEntries gives the names the other directives of mapping n bind,
// which every entry of the directive at key index at sees when its
// entries bind in order, each seeing those above it and not itself or
// those below ($let, reference §4 $let).
func besideEntries(t *tree.Table, n *yaml.Node, at int, file string, schemaOf func(*yaml.Node) *SchemaInfo) []*Binding {
	rest := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if i != at {
			rest.Content = append(rest.Content, n.Content[i], n.Content[i+1])
		}
	}
	return bound(t, rest, file, false, schemaOf)
}

// mappingScope adds to scope the names mapping n's directives bind in it.
func mappingScope(t *tree.Table, n *yaml.Node, scope []string) []string {
	for _, b := range bound(t, n, "", false, nil) {
		scope = append(scope, b.Name)
	}
	return scope
}

// preludeOnly reports whether a document root is a preamble, whose names
// the later documents see (reference §1): only prelude directives and
// their partners, and at least one that binds names, as the renderer's
// IsPreamble decides.
func preludeOnly(t *tree.Table, m *yaml.Node) bool {
	binds := false
	for i := 0; i < len(m.Content); i += 2 {
		k := m.Content[i].Value
		if !t.StandsBesidePreludes(k) {
			return false
		}
		binds = binds || described(t, k).Binds
	}
	return binds
}
