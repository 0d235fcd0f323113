package walk

import (
	"strconv"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
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
	value  Node        // $append
	path   string
}

// editDir gives the list edit directive of mapping n, or "".
func editDir(n *yaml.Node) string {
	n = Deref(n)
	if n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := Deref(n.Content[i])
		for _, d := range editDirs {
			if k.Kind == yaml.ScalarNode && k.Value == d {
				return d
			}
		}
	}
	return ""
}

// compileEditList compiles sequence n as an edit list, or gives nil when no item
// of it is a list edit. An empty sequence is a plain value.
func compileEditList(c *Compiler, n *yaml.Node, path string) (Node, *CompileError) {
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
		ip := path + "[" + Itoa(i) + "]"
		if editDir(it) == "" {
			return nil, CompileErrorAt(it, ip, "this sequence mixes list edits ($match, $remove, $append) with plain items: in an overlay's patch a sequence either edits the document's sequence, every item a list edit, or replaces it, with no list edits")
		}
		op, err := c.editItem(Deref(it), ip)
		if err != nil {
			return nil, err
		}
		s.ops = append(s.ops, op)
	}
	c.Edits++
	return s, nil
}

// editItem compiles one list edit item.
func (c *Compiler) editItem(n *yaml.Node, path string) (*editOp, *CompileError) {
	keys, err := ReadKeys(n, path, AtEditItem)
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
			return nil, CompileErrorAt(p.K, JoinPath(path, d), "one list edit per item: this item has both "+found+" and "+d+"; write them as two items")
		}
		found = d
	}
	p := keys.Dirs[found]
	return editCompilers[found](c, keys.Dirs, p, without(n, found, "$expects"), JoinPath(path, found))
}

func matchEdit(c *Compiler, dirs DirSet, p KVPair, rest *yaml.Node, path string) (*editOp, *CompileError) {
	op, err := c.selectingEdit("$match", dirs, p, path)
	if err != nil || len(rest.Content) == 0 {
		return op, err // no keys beside $match: matching items stay as they are
	}
	if op.guard.body, err = c.Compile(rest, path); err != nil {
		return nil, err
	}
	op.guard.static = isStatic(op.guard.body)
	return op, nil
}

func removeEdit(c *Compiler, dirs DirSet, p KVPair, rest *yaml.Node, path string) (*editOp, *CompileError) {
	if len(rest.Content) > 0 {
		return nil, CompileErrorAt(rest.Content[0], path, "a $remove item holds only $remove and $expects; to change the items it selects, use $match")
	}
	return c.selectingEdit("$remove", dirs, p, path)
}

// selectingEdit compiles what $match and $remove share: the expression
// that selects items, and $expects.
func (c *Compiler) selectingEdit(dir string, dirs DirSet, p KVPair, path string) (*editOp, *CompileError) {
	op := &editOp{dir: dir, key: p.K, path: path}
	var err *CompileError
	if op.guard, err = c.guard(p, path, dir); err != nil {
		return nil, err
	}
	if op.expect, err = compileExpects(dirs, path); err != nil {
		return nil, err
	}
	return op, nil
}

func appendEdit(c *Compiler, dirs DirSet, p KVPair, rest *yaml.Node, path string) (*editOp, *CompileError) {
	if e, ok := dirs["$expects"]; ok {
		return nil, CompileErrorAt(e.K, JoinPath(path, "$expects"), "$append adds one item and matches nothing, so it takes no $expects")
	}
	if len(rest.Content) > 0 {
		return nil, CompileErrorAt(rest.Content[0], path, "an $append item holds only $append: indent the item to add under $append")
	}
	op := &editOp{dir: "$append", key: p.K, path: path}
	inPatch := c.Patch
	c.Patch = false // the item added is a plain template
	defer func() { c.Patch = inPatch }()
	var err *CompileError
	op.value, err = c.Compile(p.V, path)
	return op, err
}

// listEdit is an edit list rendered in an overlay's patch, waiting for the
// sequence it edits: merge.Onto hands it that sequence.
type listEdit struct {
	seq *editSeq
	r   *Renderer
	sc  *Scope
	fr  *Frame
}

var _ merge.Edit = (*listEdit)(nil)

// Edit runs the edits on base, a sequence, or nil when the document has no
// such key. A $match or $remove that cannot be decided makes the sequence
// unknown.
func (l *listEdit) Edit(base Value) (Value, error) {
	var items []Value
	switch b := base.(type) {
	case nil:
	case []Value:
		items = b
	case Unknown:
		return Unknown{}, nil
	default:
		return nil, l.r.ErrAt(l.fr, l.seq.n, l.seq.path, "these list edits edit a sequence, but the document holds "+ValueKind(b)+" here")
	}
	for _, op := range l.seq.ops {
		var unknown bool
		var err error
		if items, unknown, err = op.apply(l.r, l.sc, l.fr, items); err != nil || unknown {
			return Unknown{}, err
		}
	}
	if items == nil {
		items = []Value{}
	}
	return items, nil
}

// apply runs one edit on items and returns the new items; it never
// changes items itself.
func (op *editOp) apply(r *Renderer, sc *Scope, fr *Frame, items []Value) ([]Value, bool, error) {
	if op.dir == "$append" {
		v, ok, err := r.Value(op.value, sc, fr)
		if err != nil || !ok {
			return items, false, err
		}
		return append(items[:len(items):len(items)], v), false, nil
	}
	out := make([]Value, 0, len(items))
	matched := 0
	inner := NewScope(sc, 1) // one for every item: nothing keeps it
	var cache patchCache
	for _, it := range items {
		if err := r.Step(fr, op.key, op.path); err != nil {
			return nil, false, err
		}
		inner.BindValue("item", it)
		d, patch, patched, err := op.guard.Run(r, inner, fr, &cache)
		switch {
		case err != nil:
			return nil, false, err
		case d == undecided:
			return nil, true, nil
		case d == decidedNo:
			out = append(out, it)
			continue
		}
		matched++
		if op.dir == "$remove" {
			continue
		}
		if it, err = op.patchItem(r, fr, it, patch, patched); err != nil {
			return nil, false, err
		}
		out = append(out, it)
	}
	if ok, _ := op.expect.holds(matched, matched); !ok {
		at := op.key
		if op.expect.key != nil {
			at = op.expect.key
		}
		return nil, false, r.ErrAt(fr, at, op.path, "this "+op.dir+" expects "+op.expect.String()+" matching "+plural(op.expect.n, "item")+
			", and "+strconv.Itoa(matched)+" of the "+strconv.Itoa(len(items))+" items matched"+expectsHint(op.expect))
	}
	return out, false, nil
}

// patchItem merges a $match's patch onto a matching item.
func (op *editOp) patchItem(r *Renderer, fr *Frame, it, patch Value, patched bool) (Value, error) {
	if !patched || patch == nil {
		return it, nil
	}
	switch patch.(type) {
	case *Map, Unknown:
		return merge.Onto(it, patch)
	}
	return nil, r.ErrAt(fr, op.key, op.path, "the keys beside $match make the patch of each matching item and must give a mapping (or nothing), got "+ValueKind(patch))
}

// editCompilers compile each list edit, by its directive.
var editCompilers = map[string]func(c *Compiler, d DirSet, p KVPair, rest *yaml.Node, path string) (*editOp, *CompileError){
	"$match":  matchEdit,
	"$remove": removeEdit,
	"$append": appendEdit,
}

func init() {
	Register(Directive{Rank: 170, Name: "$match", Kind: KindEdit, Only: AtEditItem, Misplaced: editMisplaced("$match")})
	Register(Directive{Rank: 180, Name: "$remove", Kind: KindEdit, Only: AtEditItem, Misplaced: editMisplaced("$remove")})
	Register(Directive{Rank: 190, Name: "$append", Kind: KindEdit, Only: AtEditItem, Misplaced: editMisplaced("$append"), Body: true})
}

// editMisplaced is the error for list edit d outside an edit list.
func editMisplaced(d string) string {
	return "unknown directive " + d + ": " + d + " is a list edit, a directive only in an item of a sequence in an overlay's patch; to output a key " + d + " as data, write $" + d
}

// Value gives the edit list as a merge.Edit on the document's sequence.
func (s *editSeq) Value(r *Renderer, sc *Scope, fr *Frame) (Value, bool, error) {
	return &listEdit{seq: s, r: r, sc: sc, fr: fr}, true, nil
}

// Multi adds the edit list as one item.
func (s *editSeq) Multi(r *Renderer, sc *Scope, fr *Frame, _ Position, dst []Value) ([]Value, error) {
	v, ok, err := s.Value(r, sc, fr)
	return AppendIf(dst, v, ok, err)
}

func init() { RegisterEditList(compileEditList) }
