package check

import (
	"sort"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"go.yaml.in/yaml/v3"
)

// Check walks the compiled tree (compiled.go), one mapping at a time, in
// template order: the directives of a mapping bind their names in all of
// it (reference §4), and what a directive holds is as its description
// says (tree.Described).

// step is one thing to check in a mapping, at the place it is written.
type step struct {
	at  *yaml.Node
	run func()
}

// mapping checks mapping m, written at path, whose names add to those of
// outer: its directives' expressions, bodies and included files, and its
// regular entries, in template order, with the types its directives
// declare (typecheck.go). The scoped walk (scoped.go) gives each the
// names in scope there.
func (ck *checker) mapping(fr *diag.Frame, m *mapping, outer []string, path string, data bool) {
	t := ck.e.Table()
	scope := innerScope[string](t, checkNames{}, m, outer)
	var included map[string]any
	for i, d := range m.dirs {
		if described(t, d.Name).Declares {
			included = ck.schemaFiles(fr, m.nodes[i], tree.JoinPath(path, d.Name)) // schema.go
		}
	}
	ck.pushTypes(m, outer, scope, included) // typecheck.go
	defer ck.popTypes()
	for _, d := range m.dirs {
		if described(t, d.Name).Loads {
			ck.chartValues(fr, d, scope) // chartvalues.go
		}
	}
	v := &checkMapping{ck: ck, fr: fr, path: path, data: data}
	walkScoped[string](t, v, m, outer, scope)
	for _, c := range m.plain {
		for j := 0; data && c.Node.Kind == yaml.MappingNode && j+1 < len(c.Node.Content); j += 2 {
			k, v2 := c.Node.Content[j], c.Node.Content[j+1]
			v.steps = append(v.steps, step{k, func() { ck.plainStrings(fr, v2, scope, tree.JoinPath(path, k.Value)) }})
		}
	}
	sort.SliceStable(v.steps, func(a, b int) bool { return keyBefore(v.steps[a].at, v.steps[b].at) })
	for _, s := range v.steps {
		s.run()
	}
}

// checkNames are check's bindings: names.
type checkNames struct{}

func (checkNames) bound(m *mapping, i int) []string {
	var out []string
	for _, b := range m.dirs[i].Binds {
		out = append(out, b.Name)
	}
	return out
}

func (checkNames) extend(scope, names []string) []string {
	return append(scope[:len(scope):len(scope)], names...)
}

// checkMapping is the scoped visitor (scoped.go) of one mapping check
// reads: it collects the steps of the mapping, each with the names in
// scope there, to be run in template order.
type checkMapping struct {
	checkNames
	ck    *checker
	fr    *diag.Frame
	path  string
	data  bool
	steps []step
	// exprs and bodies are those of the entries of the directive whose
	// entries are read, the entries of each kind in order.
	exprs  []*tree.ExprRef
	bodies []tree.Body
}

func (v *checkMapping) directive(m *mapping, i int, scope []string) {
	v.steps = v.ck.directiveSteps(v.steps, v.fr, m, i, scope, v.path, v.data)
}

func (v *checkMapping) value(_ *mapping, e tree.MapEntry, scope []string) {
	v.steps = append(v.steps, step{e.Key, func() { v.ck.walk(v.fr, e.Val, scope, tree.JoinPath(v.path, e.Key.Value), v.data, e.Key) }})
}

// directiveSteps adds the steps of directive i of mapping m: its
// expressions, where they are written, the file it includes, and its
// bodies, under its key or the key of the partner that holds each.
func (ck *checker) directiveSteps(steps []step, fr *diag.Frame, m *mapping, i int, scope []string, path string, data bool) []step {
	t := ck.e.Table()
	desc := m.dirs[i]
	d := described(t, desc.Name)
	dpath := tree.JoinPath(path, desc.Name)
	if d.Declares {
		return steps // schemas, not templates: schema.go
	}
	reported := map[string]bool{} // an undeclared name once per directive
	if d.Includes {
		steps = append(steps, step{desc.Key, func() { ck.include(fr, desc, dpath, scope) }}) // include.go
	}
	for _, x := range desc.Exprs {
		at, p := desc.Key, dpath
		switch {
		case x.Bare != "" && x.Bare != desc.Name: // a directive beside it ($if beside $chart)
			at, p = x.Node, tree.JoinPath(path, x.Bare)
		case x.Bare == "" && d.Exprs != tree.ExprSegments: // the ${{ }} of a partner ($msg)
			at, p = x.Node, tree.JoinPath(path, segmentPartner(t, desc.Name))
		case d.Exprs == tree.ExprBareList && strings.HasSuffix(x.Path, "]"):
			p += x.Path[strings.LastIndexByte(x.Path, '['):]
		}
		steps = append(steps, step{at, func() { ck.expr(fr, x, scope, p, reported) }})
	}
	binds := desc.Binds // the entries, in order, as their bodies are
	for _, b := range desc.Bodies {
		entry := b.Key != nil && len(binds) > 0 && binds[0].Node == b.Key
		if entry {
			binds = binds[1:]
		}
		switch {
		case b.Beside:
		case b.Key == nil:
			steps = append(steps, step{desc.Key, func() { ck.walk(fr, b.Node, scope, dpath, data && d.HoldsData(), desc.Key) }})
		case entry: // an entry of the partner that binds for the file ($with)
			w := entriesPartner(t, desc.Name)
			steps = append(steps, step{b.Key, func() {
				ck.walk(fr, b.Node, scope, tree.JoinPath(tree.JoinPath(path, w.Name), b.Name), data && w.HoldsData(), b.Key)
			}})
		default:
			pd := described(t, b.Name)
			steps = append(steps, step{b.Key, func() { ck.walk(fr, b.Node, scope, tree.JoinPath(path, b.Name), data && pd.HoldsData(), b.Key) }})
		}
	}
	return steps
}

// segmentPartner names the partner of directive name whose value holds
// ${{ }} segments ($msg beside $assert).
func segmentPartner(t *tree.Table, name string) string {
	d, _ := t.With(func(d *tree.Directive) bool { return d.Needs == name && d.Exprs == tree.ExprSegments })
	return d.Name
}

// entriesPartner is the partner of directive name whose entries it binds
// ($with beside $include).
func entriesPartner(t *tree.Table, name string) tree.Directive {
	d, _ := t.With(func(d *tree.Directive) bool { return d.Needs == name && d.Bound != tree.BindNone })
	return d
}
