package check

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// One scope model for the readers of the compiled tree. Check and the
// symbol reader walk a compiled mapping (compiled.go) the same way, and
// this file alone decides which bindings each place of it sees
// (reference §4):
//
//   - the directives of a mapping bind their names in the whole of it, in
//     template order, except an $include, whose $with names are its file's;
//   - an entry of a directive whose entries bind in order ($let) sees the
//     names in scope above the mapping, those the mapping's other
//     directives bind, and the entries above it, not its own name or those
//     below.
//
// What a binding is, is the reader's: check binds names (its type frames
// are its own, typecheck.go), the symbols bind a *Binding with the name's
// kind, position and schema.

// binder makes a reader's bindings.
type binder[B any] interface {
	// bound gives the bindings directive i of m makes.
	bound(m *mapping, i int) []B
	// extend gives scope with bs after it, leaving scope as it is.
	extend(scope, bs []B) []B
}

// scopedVisitor reads the places of a compiled mapping, each with the
// bindings in scope there.
type scopedVisitor[B any] interface {
	binder[B]
	// directive reads directive i of m, other than one whose entries bind
	// in order: its expressions and bodies see inner (an included file
	// sees its own names).
	directive(m *mapping, i int, inner []B)
	// entry reads entry j of directive i of m, whose entries bind in
	// order, with the names it sees; j is len(Binds) once after the last
	// entry, with the names all the entries bind.
	entry(m *mapping, i, j int, scope []B)
	// value reads regular entry e of m with inner.
	value(m *mapping, e tree.MapEntry, inner []B)
}

// binds reports whether directive i of m binds its names in m, not in a
// file it includes.
func binds(t *tree.Table, m *mapping, i int) bool {
	return !described(t, m.dirs[i].Name).Includes
}

// innerScope is outer and the bindings of m's directives, in template
// order: the names in scope in the whole of m.
func innerScope[B any](t *tree.Table, b binder[B], m *mapping, outer []B) []B {
	return othersScope(t, b, m, -1, outer)
}

// othersScope is outer and the bindings of m's directives but the one at
// index skip (-1: none).
func othersScope[B any](t *tree.Table, b binder[B], m *mapping, skip int, outer []B) []B {
	scope := outer
	for i := range m.dirs {
		if i != skip && binds(t, m, i) {
			if bs := b.bound(m, i); len(bs) > 0 {
				scope = b.extend(scope, bs)
			}
		}
	}
	return scope
}

// walkScoped reads mapping m, whose names add to outer to give inner
// (innerScope): its directives in template order, then its regular
// entries.
func walkScoped[B any](t *tree.Table, v scopedVisitor[B], m *mapping, outer, inner []B) {
	for i := range m.dirs {
		if described(t, m.dirs[i].Name).Exprs != tree.ExprEntries {
			v.directive(m, i, inner)
			continue
		}
		sc := othersScope(t, v, m, i, outer)
		bs := v.bound(m, i)
		for j := range m.dirs[i].Binds {
			v.entry(m, i, j, sc)
			if j < len(bs) {
				sc = v.extend(sc, bs[j:j+1])
			}
		}
		v.entry(m, i, len(m.dirs[i].Binds), sc)
	}
	for _, e := range m.entries {
		v.value(m, e, inner)
	}
}
