package walk

import (
	"go.yaml.in/yaml/v3"
	"slices"
)

// The directive table: every $-key of the language, what it needs beside
// it, and how it is compiled. The compiler reads only this table, so adding
// a directive is one entry here and one file for its compile and render
// functions (reference §2 and §4).

// dirKind says what a directive does in its mapping.
type dirKind uint8

const (
	// prelude directives ($schema, $let, $assert) run first and change the
	// scope or stop the render; they produce nothing.
	dirPrelude dirKind = iota
	// producer directives ($if, $for, $eval, $key, $include) produce
	// content: one producer alone replaces its mapping, several merge.
	dirProducer
	// partner directives ($then, $else, $do, $value, $with, $msg,
	// $expects) belong to another directive of the same mapping and mean
	// nothing alone.
	dirPartner
	// the overlay directive ($overlay) makes its document an overlay
	// (reference §8); it stands only at a document root.
	dirOverlay
	// list edits ($match, $remove, $append) are the items of a sequence in
	// an overlay's patch that edit the target sequence (reference §8).
	dirEdit
)

// dirPlace is a set of places where a directive may stand; 0 is anywhere.
type dirPlace uint8

const (
	atOverlayRoot dirPlace = 1 << iota // the root mapping of an overlay
	atEditItem                         // an item of an edit list
)

// directive describes one directive.
type directive struct {
	// rank places the directive in the table: the order of evaluation,
	// of the partner checks and of "did you mean" (see directiveTable).
	rank int
	name string
	kind dirKind
	// needs is the directive this one cannot stand without in its mapping
	// ("" if none): $then needs $if, and $if needs $then.
	needs string
	// missing is the error when needs is absent.
	missing string
	// patchable marks a producer whose bodies, in an overlay's patch, are
	// part of the patch: an edit list there edits the document ($then,
	// $else, $value). Other directives' values are plain templates.
	patchable bool
	// body marks a directive whose value is a body ($then, $else, $do):
	// one written with no value at all is an error (reference §2).
	body bool
	// prelude compiles a prelude directive (nil: it does nothing), and
	// binds says it binds names, which makes a mapping of preludes only
	// a preamble (reference §1).
	prelude func(c *compiler, d dirSet, p kvPair, path string) (prelude, *compileError)
	binds   bool
	// produce compiles a producer. path is the mapping's path.
	produce func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError)
	// only limits where the directive may stand (0: anywhere), and
	// misplaced is the error elsewhere.
	only      dirPlace
	misplaced string
	// overlay compiles an overlay document from its root mapping n.
	overlay func(c *compiler, n *yaml.Node, keys mappingKeys) (tnode, *compileError)
	// edit compiles a list edit item; rest is the item without its
	// directive and $expects.
	edit func(c *compiler, d dirSet, p kvPair, rest *yaml.Node, path string) (*editOp, *compileError)
}

// directiveTable lists the directives in evaluation order: preludes, then
// producers, each partner after the directive it belongs to. The order is
// also the order of the missing-partner checks and of "did you mean". Each
// directive's file fills in its entries with register, at their rank.
var directiveTable []directive

// directiveNames are the names of directiveTable, in its order.
var directiveNames []string

// register adds d to the directive table at its rank. Each directive
// registers itself from its own file; the rank, not the order in which
// the files register, places it.
func register(d directive) {
	i := 0
	for i < len(directiveTable) && directiveTable[i].rank < d.rank {
		i++
	}
	for _, o := range directiveTable {
		if o.name == d.name || o.rank == d.rank {
			panic("directive " + d.name + " registered twice, or at the rank of " + o.name)
		}
	}
	directiveTable = slices.Insert(directiveTable, i, d)
	directiveNames = slices.Insert(directiveNames, i, d.name)
}

// lookupDirective gives the table entry of a directive name.
func lookupDirective(name string) (*directive, bool) {
	for i := range directiveTable {
		if directiveTable[i].name == name {
			return &directiveTable[i], true
		}
	}
	return nil, false
}

// missingMsg is the error for directive d standing without d.needs.
func (d *directive) missingMsg() string {
	if d.missing != "" {
		return d.missing
	}
	return d.name + " without " + d.needs + ": " + d.name + " belongs to " + d.needs + " in the same mapping"
}

// dirSet holds the directives of one mapping by name.
type dirSet map[string]kvPair

// value gives the value node of directive name, or nil when it is absent.
func (d dirSet) value(name string) *yaml.Node {
	if p, ok := d[name]; ok {
		return p.v
	}
	return nil
}
