package overlay

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"go.yaml.in/yaml/v3"
)

// List edits ($match, $remove, $append) are the items of a sequence in an
// overlay's patch that edit the document's sequence instead of replacing it
// (reference §8). They run in order, each on the result of the one before.
// `item` is bound to the target item in a $match or $remove and in the
// keys beside $match.

// editDirs are the list edit directives.
var editDirs = []string{"$match", "$remove", "$append"}

// editSeq is a sequence of list edits.
type editSeq struct {
	n    *yaml.Node
	path string
	ops  []*editOp
}

// editOp is one list edit.
type editOp struct {
	dir    string // "$match", "$remove" or "$append"
	key    *yaml.Node
	guard  guarded     // $match and $remove
	expect expectation // $match and $remove
	value  tree.Node   // $append
	path   string
}

// editDir gives the list edit directive of mapping n, or "".
func editDir(n *yaml.Node) string {
	n = tree.Deref(n)
	if n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := tree.Deref(n.Content[i])
		for _, d := range editDirs {
			if k.Kind == yaml.ScalarNode && k.Value == d {
				return d
			}
		}
	}
	return ""
}

// CompileEditList compiles sequence n of an overlay's patch as an edit
// list, or gives nil when no item of it is a list edit. An empty sequence
// is a plain value. The engine's table is built with it (tree.NewTable).
func CompileEditList(c *tree.Compiler, n *yaml.Node, path string) (tree.Node, *tree.CompileError) {
	edits := 0
	for _, it := range n.Content {
		if editDir(it) != "" {
			edits++
		}
	}
	if edits == 0 {
		return nil, nil
	}
	s := &editSeq{n: n, path: path}
	for i, it := range n.Content {
		ip := path + "[" + tree.Itoa(i) + "]"
		if editDir(it) == "" {
			return nil, tree.CompileErrorAt(it, ip, "this sequence mixes list edits ($match, $remove, $append) with plain items: in an overlay's patch a sequence either edits the document's sequence, every item a list edit, or replaces it, with no list edits")
		}
		op, err := editItem(c, tree.Deref(it), ip)
		if err != nil {
			return nil, err
		}
		s.ops = append(s.ops, op)
	}
	c.Edits++
	return s, nil
}

// editItem compiles one list edit item.
func editItem(c *tree.Compiler, n *yaml.Node, path string) (*editOp, *tree.CompileError) {
	keys, err := c.ReadKeys(n, path, tree.AtEditItem)
	if err != nil {
		return nil, err
	}
	found := ""
	for _, d := range editDirs { // in the table's order
		p, ok := keys.Dirs[d]
		if !ok {
			continue
		}
		if found != "" {
			return nil, tree.CompileErrorAt(p.K, tree.JoinPath(path, d), "one list edit per item: this item has both "+found+" and "+d+"; write them as two items")
		}
		found = d
	}
	p := keys.Dirs[found]
	return editCompilers[found](c, keys.Dirs, p, without(n, found, "$expects"), tree.JoinPath(path, found))
}

func matchEdit(c *tree.Compiler, dirs tree.DirSet, p tree.KVPair, rest *yaml.Node, path string) (*editOp, *tree.CompileError) {
	op, err := selectingEdit("$match", dirs, p, path)
	if err != nil || len(rest.Content) == 0 {
		return op, err // no keys beside $match: matching items stay as they are
	}
	if op.guard.body, err = c.Compile(rest, path); err != nil {
		return nil, err
	}
	op.guard.static = isStatic(op.guard.body)
	return op, nil
}

func removeEdit(c *tree.Compiler, dirs tree.DirSet, p tree.KVPair, rest *yaml.Node, path string) (*editOp, *tree.CompileError) {
	if len(rest.Content) > 0 {
		return nil, tree.CompileErrorAt(rest.Content[0], path, "a $remove item holds only $remove and $expects; to change the items it selects, use $match")
	}
	return selectingEdit("$remove", dirs, p, path)
}

// selectingEdit compiles what $match and $remove share: the expression
// that selects items, and $expects.
func selectingEdit(dir string, dirs tree.DirSet, p tree.KVPair, path string) (*editOp, *tree.CompileError) {
	op := &editOp{dir: dir, key: p.K, path: path}
	var err *tree.CompileError
	if op.guard, err = guard(p, path, dir); err != nil {
		return nil, err
	}
	if op.expect, err = compileExpects(dirs, path); err != nil {
		return nil, err
	}
	return op, nil
}

func appendEdit(c *tree.Compiler, dirs tree.DirSet, p tree.KVPair, rest *yaml.Node, path string) (*editOp, *tree.CompileError) {
	if e, ok := dirs["$expects"]; ok {
		return nil, tree.CompileErrorAt(e.K, tree.JoinPath(path, "$expects"), "$append adds one item and matches nothing, so it takes no $expects")
	}
	if len(rest.Content) > 0 {
		return nil, tree.CompileErrorAt(rest.Content[0], path, "an $append item holds only $append: indent the item to add under $append")
	}
	op := &editOp{dir: "$append", key: p.K, path: path}
	inPatch := c.Patch
	c.Patch = false // the item added is a plain template
	defer func() { c.Patch = inPatch }()
	var err *tree.CompileError
	op.value, err = c.Compile(p.V, path)
	return op, err
}

// editCompilers compile each list edit, by its directive.
var editCompilers = map[string]func(c *tree.Compiler, d tree.DirSet, p tree.KVPair, rest *yaml.Node, path string) (*editOp, *tree.CompileError){
	"$match":  matchEdit,
	"$remove": removeEdit,
	"$append": appendEdit,
}

// ListEdits gives the directive table's entries of
// the list edits $match, $remove and $append (reference §8).
func ListEdits() []tree.Directive {
	return []tree.Directive{
		{Name: "$match", Kind: tree.KindEdit, Only: tree.AtEditItem, Misplaced: editMisplaced("$match"),
			Exprs: tree.ExprBare, Bound: tree.BindFixed, BoundNames: []string{"item"}, BoundKind: "overlay", Section: 8,
			Summary: "In an overlay's list: merges the other keys of this item into every item for which the CEL expression (item bound) is true."},
		{Name: "$remove", Kind: tree.KindEdit, Only: tree.AtEditItem | tree.AtOverlayRoot,
			Exprs: tree.ExprBare, Bound: tree.BindFixed, BoundNames: []string{"item"}, BoundKind: "overlay", Section: 8,
			Summary:   "In an overlay's list: removes every item for which the CEL expression (item bound) is true. At an overlay's root, true: removes the documents the overlay matches.",
			Misplaced: "unknown directive $remove: $remove is a list edit, a directive only in an item of a sequence in an overlay's patch, or $remove: true beside $overlay at an overlay's root, which removes the documents it matches; to output a key $remove as data, write $$remove"},
		{Name: "$append", Kind: tree.KindEdit, Only: tree.AtEditItem, Misplaced: editMisplaced("$append"), Body: true,
			Section: 8, Summary: "In an overlay's list: adds this template's value at the end."},
	}
}

// editMisplaced is the error for list edit d outside an edit list.
func editMisplaced(d string) string {
	return "unknown directive " + d + ": " + d + " is a list edit, a directive only in an item of a sequence in an overlay's patch; to output a key " + d + " as data, write $" + d
}

// Value gives the edit list as a merge.Edit on the document's sequence.
func (s *editSeq) Value(r tree.Renderer, sc *scope.Scope, fr *diag.Frame) (value.Value, bool, error) {
	return &listEdit{seq: s, r: r, sc: sc, fr: fr}, true, nil
}

// Multi adds the edit list as one item.
func (s *editSeq) Multi(r tree.Renderer, sc *scope.Scope, fr *diag.Frame, _ tree.Position, dst []value.Value) ([]value.Value, error) {
	v, ok, err := s.Value(r, sc, fr)
	return tree.AppendIf(dst, v, ok, err)
}

// Describe gives a $match's or a $remove's condition, the item it binds
// and its patch, or what $append appends (reference §8).
func (op *editOp) Describe() tree.Description {
	if op.guard.key == nil { // $append
		return tree.Description{Name: op.dir, Key: op.key, Bodies: []tree.Body{{Node: op.value}}}
	}
	return op.guard.describe("item")
}

// Parts are the list edits, in order.
func (s *editSeq) Parts() []tree.Node {
	out := make([]tree.Node, len(s.ops))
	for i, op := range s.ops {
		out[i] = op
	}
	return out
}
