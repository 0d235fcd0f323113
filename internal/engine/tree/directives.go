package tree

import (
	"slices"

	"go.yaml.in/yaml/v3"
)

// The directive table: every $-key of the language, what it needs beside
// it, and how it is compiled. The compiler reads only this table, and the
// directives fill it in (packages directive and overlay, each directive's
// file calling Register), so adding a directive is one file (reference §2
// and §4).

// Kind says what a directive does in its mapping.
type Kind uint8

const (
	// prelude directives ($schema, $let, $assert) run first and change the
	// scope or stop the render; they produce nothing.
	KindPrelude Kind = iota
	// producer directives ($if, $for, $eval, $key, $include) produce
	// content: one producer alone replaces its mapping, several merge.
	KindProducer
	// partner directives ($then, $else, $do, $value, $with, $msg,
	// $expects) belong to another directive of the same mapping and mean
	// nothing alone.
	KindPartner
	// the overlay directive ($overlay) makes its document an overlay
	// (reference §8), and $transform a transform (reference §10); they
	// stand only at a document root, and the first of the table that a
	// root holds compiles it (Compiler.Document).
	KindOverlay
	// list edits ($match, $remove, $append) are the items of a sequence in
	// an overlay's patch that edit the target sequence (reference §8).
	KindEdit
)

// Place is a set of places where a directive may stand; 0 is anywhere.
type Place uint8

const (
	AtOverlayRoot   Place = 1 << iota // the root mapping of an overlay
	AtEditItem                        // an item of an edit list
	AtTransformRoot                   // the root mapping of a transform
	AtChartRoot                       // the root mapping of a $chart document
)

// Directive describes one directive.
type Directive struct {
	// Rank places the directive in the table: the order of evaluation,
	// of the partner checks and of "did you mean" (see directiveTable).
	Rank int
	Name string
	Kind Kind
	// Needs is the directive this one cannot stand without in its mapping
	// ("" if none): $then needs $if, and $if needs $then.
	Needs string
	// Missing is the error when needs is absent.
	Missing string
	// Patchable marks a producer whose bodies, in an overlay's patch, are
	// part of the patch: an edit list there edits the document ($then,
	// $else, $value). Other directives' values are plain templates.
	Patchable bool
	// Body marks a directive whose value is a body ($then, $else, $do):
	// one written with no value at all is an error (reference §2).
	Body bool
	// Prelude compiles a prelude directive (nil: it does nothing), and
	// binds says it binds names, which makes a mapping of preludes only
	// a preamble (reference §1).
	Prelude func(c *Compiler, d DirSet, p KVPair, path string) (Prelude, *CompileError)
	Binds   bool
	// Produce compiles a producer. path is the mapping's path.
	Produce func(c *Compiler, d DirSet, p KVPair, path string) (Producer, *CompileError)
	// only limits where the directive may stand (0: anywhere), and
	// misplaced is the error elsewhere.
	Only      Place
	Misplaced string
	// Overlay compiles an overlay (or transform) document from its root
	// mapping n, whose keys were read at the place Only.
	Overlay func(c *Compiler, n *yaml.Node, keys MappingKeys) (Node, *CompileError)
}

// directiveTable lists the directives in evaluation order: preludes, then
// producers, each partner after the directive it belongs to. The order is
// also the order of the missing-partner checks and of "did you mean". Each
// directive's file fills in its entries with register, at their rank.
var directiveTable []Directive

// directiveNames are the names of directiveTable, in its order.
var directiveNames []string

// Register adds d to the directive table at its rank. Each directive
// registers itself from its own file; the rank, not the order in which
// the files register, places it.
func Register(d Directive) {
	i := 0
	for i < len(directiveTable) && directiveTable[i].Rank < d.Rank {
		i++
	}
	for _, o := range directiveTable {
		if o.Name == d.Name || o.Rank == d.Rank {
			panic("directive " + d.Name + " registered twice, or at the rank of " + o.Name)
		}
	}
	directiveTable = slices.Insert(directiveTable, i, d)
	directiveNames = slices.Insert(directiveNames, i, d.Name)
}

// lookupDirective gives the table entry of a directive name.
func lookupDirective(name string) (*Directive, bool) {
	for i := range directiveTable {
		if directiveTable[i].Name == name {
			return &directiveTable[i], true
		}
	}
	return nil, false
}

// LookupDirective gives a copy of the table entry of a directive name,
// for check, which removes a directive with the partners that need it.
func LookupDirective(name string) (Directive, bool) {
	if d, ok := lookupDirective(name); ok {
		return *d, true
	}
	return Directive{}, false
}

// missingMsg is the error for directive d standing without d.needs.
func (d *Directive) missingMsg() string {
	if d.Missing != "" {
		return d.Missing
	}
	return d.Name + " without " + d.Needs + ": " + d.Name + " belongs to " + d.Needs + " in the same mapping"
}

// DirSet holds the directives of one mapping by name.
type DirSet map[string]KVPair

// Value gives the value node of directive name, or nil when it is absent.
func (d DirSet) Value(name string) *yaml.Node {
	if p, ok := d[name]; ok {
		return p.V
	}
	return nil
}

// DirectiveNames gives the names of the registered directives, in table
// order.
func DirectiveNames() []string { return slices.Clone(directiveNames) }

// Suggest names the directive closest to the unknown $-key k, as the
// unknown-directive error does, or "" when none is close.
func Suggest(k string) string { return suggest(k) }

// IsDirectiveLike reports whether a key claims to be a directive: "$"
// followed by a letter or "_".
func IsDirectiveLike(k string) bool { return isDirectiveLike(k) }

// SchemaKeywordKeys are the $-keywords of JSON Schema and OpenAPI, which
// the unknown-directive error tells to write with $$ as data.
func SchemaKeywordKeys() []string { return slices.Clone(schemaKeywords) }
