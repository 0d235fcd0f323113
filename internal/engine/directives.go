package engine

import (
	"go.yaml.in/yaml/v3"
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
	// (reference §8), and $transform a transform (reference §10); they
	// stand only at a document root.
	dirOverlay
	// list edits ($match, $remove, $append) are the items of a sequence in
	// an overlay's patch that edit the target sequence (reference §8).
	dirEdit
)

// dirPlace is a set of places where a directive may stand; 0 is anywhere.
type dirPlace uint8

const (
	atOverlayRoot   dirPlace = 1 << iota // the root mapping of an overlay
	atEditItem                           // an item of an edit list
	atTransformRoot                      // the root mapping of a transform (transform.go)
)

// directive describes one directive.
type directive struct {
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
	// prelude compiles a prelude directive into m.
	prelude func(c *compiler, m *mapNode, d dirSet, p kvPair, path string) *compileError
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
// also the order of the missing-partner checks and of "did you mean". It is
// filled by init because its compile functions reach the compiler, which
// reads the table.
var directiveTable []directive

// directiveNames are the names of directiveTable, in its order.
var directiveNames []string

func init() {
	directiveTable = []directive{
		{name: "$schema", kind: dirPrelude,
			prelude: func(c *compiler, m *mapNode, d dirSet, p kvPair, path string) (err *compileError) {
				m.schema, err = compileSchemaDir(p.k, p.v, joinPath(path, "$schema"))
				return err
			}},
		{name: "$let", kind: dirPrelude,
			prelude: func(c *compiler, m *mapNode, d dirSet, p kvPair, path string) (err *compileError) {
				m.lets, err = c.lets(p.k, p.v, joinPath(path, "$let"))
				return err
			}},
		{name: "$assert", kind: dirPrelude,
			prelude: func(c *compiler, m *mapNode, d dirSet, p kvPair, path string) (err *compileError) {
				m.asserts, err = compileAssert(p.k, p.v, d.value("$msg"), joinPath(path, "$assert"))
				return err
			}},
		{name: "$msg", kind: dirPartner, needs: "$assert"},
		{name: "$if", kind: dirProducer, needs: "$then", patchable: true,
			missing: "$if without $then: write the value to use when the condition is true under $then",
			produce: func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError) {
				return c.ifDir(p.k, p.v, d["$then"], d["$else"], joinPath(path, "$if"))
			}},
		{name: "$then", kind: dirPartner, needs: "$if", body: true},
		{name: "$else", kind: dirPartner, needs: "$if", body: true},
		{name: "$for", kind: dirProducer, needs: "$do",
			missing: "$for without $do: write the body to render for each element under $do",
			produce: func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError) {
				return c.forDir(p.k, p.v, d["$do"], joinPath(path, "$for"))
			}},
		{name: "$do", kind: dirPartner, needs: "$for", body: true},
		{name: "$eval", kind: dirProducer,
			produce: func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError) {
				return compileEval(p.k, p.v, joinPath(path, "$eval"))
			}},
		{name: "$key", kind: dirProducer, needs: "$value", patchable: true,
			missing: "$key without $value: $key and $value make one entry together",
			produce: func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError) {
				return c.kvDir(p.k, p.v, d.value("$value"), path)
			}},
		{name: "$value", kind: dirPartner, needs: "$key",
			missing: "$value without $key: $key and $value make one entry together"},
		{name: "$include", kind: dirProducer,
			produce: func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError) {
				return c.includeDir(p.k, p.v, d.value("$with"), joinPath(path, "$include"))
			}},
		{name: "$with", kind: dirPartner, needs: "$include"},
		{name: "$overlay", kind: dirOverlay, only: atOverlayRoot,
			misplaced: "$overlay stands only at the root of a document: an overlay is a document of its own, applied to the other documents once they are rendered",
			overlay:   func(c *compiler, n *yaml.Node, keys mappingKeys) (tnode, *compileError) { return c.overlay(n, keys) }},
		{name: "$expects", kind: dirPartner, only: atOverlayRoot | atEditItem,
			misplaced: "unknown directive $expects: $expects is a directive only beside $overlay, $match or $remove in an overlay; to output a key $expects as data, write $$expects"},
		{name: "$match", kind: dirEdit, only: atEditItem, misplaced: editMisplaced("$match"),
			edit: func(c *compiler, d dirSet, p kvPair, rest *yaml.Node, path string) (*editOp, *compileError) {
				return c.matchEdit(d, p, rest, path)
			}},
		{name: "$remove", kind: dirEdit, only: atEditItem | atOverlayRoot,
			misplaced: "unknown directive $remove: $remove is a list edit, a directive only in an item of a sequence in an overlay's patch, or $remove: true beside $overlay at an overlay's root, which removes the documents it matches; to output a key $remove as data, write $$remove",
			edit: func(c *compiler, d dirSet, p kvPair, rest *yaml.Node, path string) (*editOp, *compileError) {
				return c.removeEdit(d, p, rest, path)
			}},
		{name: "$append", kind: dirEdit, only: atEditItem, misplaced: editMisplaced("$append"), body: true,
			edit: func(c *compiler, d dirSet, p kvPair, rest *yaml.Node, path string) (*editOp, *compileError) {
				return c.appendEdit(d, p, rest, path)
			}},
		{name: "$transform", kind: dirOverlay, only: atTransformRoot,
			misplaced: "$transform stands only at the root of a document: a transform is a document of its own, applied to the other documents once they are rendered",
			overlay:   func(c *compiler, n *yaml.Node, keys mappingKeys) (tnode, *compileError) { return c.transform(n, keys) }},
	}
	for _, d := range directiveTable {
		directiveNames = append(directiveNames, d.name)
	}
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

// editMisplaced is the error for list edit d outside an edit list.
func editMisplaced(d string) string {
	return "unknown directive " + d + ": " + d + " is a list edit, a directive only in an item of a sequence in an overlay's patch; to output a key " + d + " as data, write $" + d
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
