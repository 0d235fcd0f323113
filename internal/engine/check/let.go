package check

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// entry checks entry j of directive i of mapping m, whose entries bind
// their names in order ($let), with the names scope the scoped walk gives
// it (scoped.go; reference §4 $let). An expression entry is checked as an
// expression; a template entry is walked, without warnings on its plain
// strings. Its step stands at the directive's key, the entries in order.
func (v *checkMapping) entry(m *mapping, i, j int, scope []string) {
	desc := m.dirs[i]
	if j == 0 {
		v.exprs, v.bodies = desc.Exprs, desc.Bodies // the entries of each kind, in order
	}
	if j == len(desc.Binds) {
		return
	}
	b := desc.Binds[j]
	p := tree.JoinPath(tree.JoinPath(v.path, desc.Name), b.Name)
	ck, fr := v.ck, v.fr
	switch {
	case len(v.bodies) > 0 && v.bodies[0].Key == b.Node:
		n := v.bodies[0].Node
		v.bodies = v.bodies[1:]
		v.steps = append(v.steps, step{desc.Key, func() { ck.walk(fr, n, scope, p, false, b.Node) }})
	case len(v.exprs) > 0:
		x := v.exprs[0]
		v.exprs = v.exprs[1:]
		v.steps = append(v.steps, step{desc.Key, func() { ck.expr(fr, x, scope, p, map[string]bool{}) }})
	}
}
