package tree

import (
	"slices"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"

	"go.yaml.in/yaml/v3"
)

// The directive table: every $-key of the language, what it needs beside
// it, and how it is compiled. The compiler reads only this table; the
// engine's facade assembles it from the entries that packages directive
// and overlay give (NewTable), in a list written out in one place
// (reference §2 and §4).

// Kind says what a directive does in its mapping.
type Kind uint8

const (
	// prelude directives (such as $let) run first and change the scope or
	// stop the render; they produce nothing.
	KindPrelude Kind = iota
	// producer directives (such as $if) produce content: one producer
	// alone replaces its mapping, several merge.
	KindProducer
	// partner directives (such as $then) belong to another directive of
	// the same mapping and mean nothing alone.
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

	// The description: what the directive's value holds and binds, which
	// the readers of a template that do not render it (check, its type
	// checker, the language server's symbols, the editor schema, the
	// hints) take from here rather than from the directive's name.

	// Exprs says where its value holds CEL expressions.
	Exprs ExprForm
	// Bound says which names it binds, and BoundNames are the names of
	// BindFixed; BoundKind is how the language server labels them ("let",
	// "schema", "for", "overlay").
	Bound      BindForm
	BoundNames []string
	BoundKind  string
	// Declares marks the directive whose entries declare the types of
	// the variables they bind ($schema): its value is schemas, not
	// template data.
	Declares bool
	// Includes marks the directive whose value names a template file
	// rendered in its place ($include).
	Includes bool
	// Loads marks the document directive whose value names what it loads
	// in its document's place: a chart's folder or .tgz path, or a remote
	// chart's mapping ($chart).
	Loads bool
	// Values marks the partner of a Loads directive that holds the values
	// what it loads is rendered with ($values): check reads them against
	// what the chart declares.
	Values bool
	// Fields are the fields of a directive whose value is a mapping of
	// fixed fields ($release).
	Fields []string
	// Beside are the directives other than the preludes that a document
	// directive's root takes beside it, with their partners' rules its
	// own: $if beside $chart needs no $then.
	Beside []string
	// Must is the type its bare expression must give, and MustWhat how
	// the render names the expression in the error ("the $if condition").
	Must     MustForm
	MustWhat string
	// Section is the section of the language reference that states the
	// directive (its anchor is sSECTION-NAME) and Summary one sentence on
	// it, for the editor schema.
	Section int
	Summary string
}

// ExprForm says where a directive's value holds CEL (reference §3).
type ExprForm uint8

const (
	// ExprNone: the value is a template, where a plain string is data.
	ExprNone ExprForm = iota
	// ExprBare: a string value is one bare CEL expression.
	ExprBare
	// ExprBareList: a string, or a list of strings, each a bare
	// expression.
	ExprBareList
	// ExprLoop: "NAME in EXPR" or "KEY, VALUE in EXPR", EXPR bare.
	ExprLoop
	// ExprEntries: a mapping whose string entries are bare expressions
	// and whose other entries are templates.
	ExprEntries
	// ExprSegments: a string whose ${{ }} segments are CEL.
	ExprSegments
	// ExprCount: a count, an int or "N+"; no CEL, and no template data.
	ExprCount
)

// BindForm says which names a directive binds (reference §4).
type BindForm uint8

const (
	// BindNone binds nothing.
	BindNone BindForm = iota
	// BindEntries binds the keys of its mapping in the mapping that holds
	// it.
	BindEntries
	// BindLoop binds the names of its "NAME in EXPR" in its body.
	BindLoop
	// BindFixed binds BoundNames in the mapping that holds it.
	BindFixed
	// BindIncluded binds the keys of its mapping in the file that the
	// directive it belongs to includes.
	BindIncluded
)

// MustForm is the type a directive's expression must give.
type MustForm uint8

const (
	// MustAny: any type.
	MustAny MustForm = iota
	// MustBool: a bool.
	MustBool
	// MustIterable: a list or a map.
	MustIterable
)

// HoldsData reports whether the directive's value is template data, in
// which a plain string is a string: neither CEL nor schemas nor a count.
func (d *Directive) HoldsData() bool { return d.Exprs == ExprNone && !d.Declares }

// WholeExpr reports whether a string value of the directive is one CEL
// expression as a whole (or the head of one, as "x in EXPR"), where an
// editor offers the names in scope: the bare expressions of the
// directives of a mapping (such as $if), not those of an overlay's
// root or a list edit, nor $let's entries (the symbols mark those one by
// one).
func (d *Directive) WholeExpr() bool {
	switch d.Exprs {
	case ExprBare, ExprBareList, ExprLoop:
		return d.Kind == KindPrelude || d.Kind == KindProducer
	}
	return false
}

// Anchor is the anchor of the directive in the language reference.
func (d *Directive) Anchor() string {
	return "s" + Itoa(d.Section) + "-" + strings.TrimPrefix(d.Name, "$")
}

// Directives gives a copy of the table's entries, in its order.
func (t *Table) Directives() []Directive { return slices.Clone(t.dirs) }

// StandsBesidePreludes reports whether directive name is a prelude or the
// partner of one: the directives a preamble, an overlay's root or a
// transform's root may hold beside their own (reference §1, §8, §10).
func (t *Table) StandsBesidePreludes(name string) bool {
	d, ok := t.lookup(name)
	if !ok {
		return false
	}
	if d.Kind == KindPartner {
		d, ok = t.lookup(d.Needs)
	}
	return ok && d.Kind == KindPrelude
}

// With gives the first directive of the table for which has holds, and
// whether there is one.
func (t *Table) With(has func(*Directive) bool) (Directive, bool) {
	for i := range t.dirs {
		if has(&t.dirs[i]) {
			return t.dirs[i], true
		}
	}
	return Directive{}, false
}

// Table is the directive table the compiler reads: the directives in
// evaluation order (preludes, then producers, each partner after the
// directive it belongs to, then the document directives and list edits),
// which is also the order of the missing-partner checks and of "did you
// mean", and how a sequence of an overlay's patch compiles as an edit
// list. NewTable builds it; it does not change after.
type Table struct {
	dirs     []Directive
	names    []string
	editList EditListFunc
}

// EditListFunc compiles a sequence of an overlay's patch as an edit list,
// or gives nil when no item of it is a list edit (reference §8).
type EditListFunc func(c *Compiler, n *yaml.Node, path string) (Node, *CompileError)

// NewTable builds the directive table from groups of entries, in the
// order given, and the compile step of edit lists. A name given twice,
// or a missing edit-list step, is a mistake in the engine's assembly: it
// panics, which the engine's tests meet first.
func NewTable(editList EditListFunc, groups ...[]Directive) *Table {
	if editList == nil {
		panic("tree.NewTable: no edit-list step")
	}
	t := &Table{editList: editList}
	for _, g := range groups {
		for _, d := range g {
			if slices.Contains(t.names, d.Name) {
				panic("tree.NewTable: directive " + d.Name + " listed twice")
			}
			t.dirs = append(t.dirs, d)
			t.names = append(t.names, d.Name)
		}
	}
	return t
}

// lookup gives the table entry of a directive name.
func (t *Table) lookup(name string) (*Directive, bool) {
	for i := range t.dirs {
		if t.dirs[i].Name == name {
			return &t.dirs[i], true
		}
	}
	return nil, false
}

// Lookup gives a copy of the table entry of a directive name, for check,
// which removes a directive with the partners that need it.
func (t *Table) Lookup(name string) (Directive, bool) {
	if d, ok := t.lookup(name); ok {
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

// Names gives the names of the table's directives, in table order.
func (t *Table) Names() []string { return slices.Clone(t.names) }

// Suggest names the directive closest to the unknown $-key k, as the
// unknown-directive error does, or "" when none is close.
func (t *Table) Suggest(k string) string {
	return hint.Nearest(k, t.names, 3, true)
}

// IsDirectiveLike reports whether a key claims to be a directive: "$"
// followed by a letter or "_".
func IsDirectiveLike(k string) bool { return isDirectiveLike(k) }

// SchemaKeywordKeys are the $-keywords of JSON Schema and OpenAPI, which
// the unknown-directive error tells to write with $$ as data.
func SchemaKeywordKeys() []string { return slices.Clone(schemaKeywords) }
