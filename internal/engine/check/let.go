package check

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"go.yaml.in/yaml/v3"
)

// walkLet checks the entries of the directive at key index at of mapping
// n, whose value is a mapping of expressions and templates that binds its
// keys in order ($let), each entry with the names a render gives it
// (reference §4 $let): those in scope before n, the names n's other
// directives bind, and the entries above it, not its own name or those
// below.
func (ck *checker) walkLet(fr *diag.Frame, n *yaml.Node, at int, before []string, path string) {
	d, let := described(ck.e.Table(), n.Content[at].Value), tree.Deref(n.Content[at+1])
	base := append([]string(nil), before...)
	for _, b := range besideEntries(ck.e.Table(), n, at, "", nil) {
		base = append(base, b.Name)
	}
	for j := 0; j+1 < len(let.Content); j += 2 {
		sc := append([]string(nil), base...)
		for i := 0; i < j; i += 2 {
			sc = append(sc, let.Content[i].Value)
		}
		entry := &yaml.Node{Kind: yaml.MappingNode, Content: let.Content[j : j+2]}
		ck.exprs(fr, &d, entry, sc, path)
		ck.walk(fr, entry, sc, true, path)
	}
}
