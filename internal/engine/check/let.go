package check

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"go.yaml.in/yaml/v3"
)

// entries checks the entries of directive i of mapping m, which bind
// their names in order ($let), each entry with the names a render gives
// it (reference §4 $let): those of outer, in scope above m, the names m's
// other directives bind, and the entries above it, not its own name or
// those below. An expression entry is checked as an expression; a
// template entry is walked, without warnings on its plain strings.
func (ck *checker) entries(fr *tree.Frame, m *mapping, i int, outer []string, path string) {
	desc := m.dirs[i]
	base := append(append([]string(nil), outer...), m.names(ck.e.Table(), i)...)
	bodies := map[*yaml.Node]tree.Node{}
	for _, b := range desc.Bodies {
		bodies[b.Key] = b.Node
	}
	exprs := desc.Exprs // the expression entries, in order
	for j, b := range desc.Binds {
		sc := append([]string(nil), base...)
		for _, above := range desc.Binds[:j] {
			sc = append(sc, above.Name)
		}
		p := tree.JoinPath(path, b.Name)
		if body, ok := bodies[b.Node]; ok {
			ck.walk(fr, body, sc, p, false)
			continue
		}
		if len(exprs) > 0 {
			ck.expr(fr, exprs[0], sc, p, map[string]bool{})
			exprs = exprs[1:]
		}
	}
}
