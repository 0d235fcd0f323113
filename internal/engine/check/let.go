package check

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// entries checks the entries of directive i of mapping m, which bind
// their names in order ($let), each entry with the names a render gives
// it (reference §4 $let): those of outer, in scope above m, the names m's
// other directives bind, and the entries above it, not its own name or
// those below. An expression entry is checked as an expression; a
// template entry is walked, without warnings on its plain strings.
func (ck *checker) entries(fr *diag.Frame, m *mapping, i int, outer []string, path string) {
	desc := m.dirs[i]
	names := append(append([]string(nil), outer...), m.names(ck.e.Table(), i)...)
	base := len(names)
	for _, b := range desc.Binds {
		names = append(names, b.Name)
	}
	exprs, bodies := desc.Exprs, desc.Bodies // the entries of each kind, in order
	for j, b := range desc.Binds {
		sc := names[: base+j : base+j] // the entries above: a prefix, copied where it grows
		p := tree.JoinPath(path, b.Name)
		if len(bodies) > 0 && bodies[0].Key == b.Node {
			ck.walk(fr, bodies[0].Node, sc, p, false, b.Node)
			bodies = bodies[1:]
			continue
		}
		if len(exprs) > 0 {
			ck.expr(fr, exprs[0], sc, p, map[string]bool{})
			exprs = exprs[1:]
		}
	}
}
