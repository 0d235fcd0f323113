package overlay

import (
	"regexp"
	"strconv"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/manifest"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// $overlay makes a document an overlay (reference §8): it gives no document
// of its own, and once every other document of the render is produced, it
// edits those for which its condition holds, by the merge rule of §9 with
// list edits (listedit.go). Overlays apply one after another in stream
// order. $expects says how many documents must match.

// overlayNode is a compiled overlay document.
type overlayNode struct {
	n      *yaml.Node // the root mapping
	guard  guarded
	expect expectation
	edits  bool // the patch holds list edits somewhere
}

// guarded is a condition with the mapping it guards: an overlay's root or a
// $match item. The mapping's $schema, $let and $assert run first, then the
// condition, then the rest of the mapping renders as the patch.
type guarded struct {
	dir       string     // "$overlay" or "$match"
	key       *yaml.Node // the directive's key
	cond      *walk.ExprRef
	constCond *bool     // a YAML bool written as the condition
	body      walk.Node // the mapping without the directive and $expects; nil when that is empty
	// static marks a body of plain data and list edits only: it renders
	// to the same patch for every target, since its list edits read doc
	// and item only when they run, from the scope the caller reuses.
	static bool
}

// patchCache keeps the patch of a static guard for the targets after the
// first, within one loop over targets whose scope is reused.
type patchCache struct {
	v            walk.Value
	ok, ready    bool
	nodes, bytes int // the patch's size, counted against the limits at each use
}

// isStatic reports whether t is plain data and list edits only.
func isStatic(t walk.Node) bool {
	switch t := t.(type) {
	case nil, *walk.ConstNode:
		return true
	case *editSeq:
		return true
	case *walk.MapNode:
		if len(t.Prods) > 0 || len(t.Preludes) > 0 {
			return false
		}
		for _, e := range t.Entries {
			if !isStatic(e.Val) {
				return false
			}
		}
		return true
	}
	return false
}

// expectation is an $expects count: exactly n, or at least n.
type expectation struct {
	n       int
	atLeast bool
	key     *yaml.Node // the $expects key; nil for the default "1+"
}

func (e expectation) String() string {
	if e.atLeast {
		return strconv.Itoa(e.n) + "+"
	}
	return strconv.Itoa(e.n)
}

// holds reports whether a count between lo and hi (lo and hi included;
// more than lo when some matches are not known yet) meets e, and whether
// that is decided: it is not while some count in the range meets e and
// another does not.
func (e expectation) holds(lo, hi int) (ok, decided bool) {
	meets := func(k int) bool { return k == e.n || (e.atLeast && k > e.n) }
	if lo == hi {
		return meets(lo), true
	}
	if e.atLeast {
		return lo >= e.n, lo >= e.n || hi < e.n
	}
	return false, e.n < lo || e.n > hi
}

func overlay(c *walk.Compiler, n *yaml.Node, keys walk.MappingKeys) (walk.Node, *walk.CompileError) {
	p := keys.Dirs["$overlay"]
	o := &overlayNode{n: n}
	var err *walk.CompileError
	if o.guard, err = guard(c, p, "$overlay", "$overlay"); err != nil {
		return nil, err
	}
	if o.expect, err = compileExpects(keys.Dirs, "$overlay"); err != nil {
		return nil, err
	}
	c.Patch = true
	defer func() { c.Patch = false }()
	edits := c.Edits
	if rest := without(n, "$overlay", "$expects"); len(rest.Content) > 0 {
		if o.guard.body, err = c.Compile(rest, ""); err != nil {
			return nil, err
		}
	}
	o.guard.static = isStatic(o.guard.body)
	o.edits = c.Edits > edits
	return o, nil
}

// guard compiles the condition of directive p (dir) at path.
func guard(c *walk.Compiler, p walk.KVPair, path, dir string) (guarded, *walk.CompileError) {
	g := guarded{dir: dir, key: p.K}
	cn := walk.Deref(p.V)
	if s, ok := walk.StringScalar(cn); ok {
		g.cond = walk.NewExprRef(walk.ExprRef{Text: s, Shown: s, Node: cn, Path: path, Bare: dir})
		return g, nil
	}
	if b, ok := walk.BoolScalar(cn); ok {
		g.constCond = &b
		return g, nil
	}
	return g, walk.CompileErrorAt(cn, path, dir+" takes a CEL expression string that gives a bool, got "+yamlnode.AKind(cn))
}

var expectsForm = regexp.MustCompile(`^([0-9]{1,9})(\+?)$`)

// compileExpects reads the $expects beside the directive at path, or the
// default "1+".
func compileExpects(dirs walk.DirSet, path string) (expectation, *walk.CompileError) {
	p, ok := dirs["$expects"]
	if !ok {
		return expectation{n: 1, atLeast: true}, nil
	}
	v := walk.Deref(p.V)
	msg := `$expects takes how many items must match: an int (exactly that many) or a string "N+" (at least N), got `
	if v.Kind != yaml.ScalarNode {
		return expectation{}, walk.CompileErrorAt(v, walk.JoinPath(path, "$expects"), msg+yamlnode.AKind(v))
	}
	switch v.ShortTag() {
	case "!!int":
		if m := expectsForm.FindStringSubmatch(v.Value); m != nil {
			n, _ := strconv.Atoi(m[1])
			return expectation{n: n, key: p.K}, nil
		}
	case "!!str":
		if m := expectsForm.FindStringSubmatch(v.Value); m != nil && m[2] == "+" {
			n, _ := strconv.Atoi(m[1])
			return expectation{n: n, atLeast: true, key: p.K}, nil
		}
		return expectation{}, walk.CompileErrorAt(v, walk.JoinPath(path, "$expects"), msg+walk.Quote(v.Value))
	}
	return expectation{}, walk.CompileErrorAt(v, walk.JoinPath(path, "$expects"), msg+yamlnode.AKind(v))
}

// without is mapping n without the given keys.
func without(n *yaml.Node, keys ...string) *yaml.Node {
	out := *n
	out.Content = make([]*yaml.Node, 0, len(n.Content))
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := walk.Deref(n.Content[i])
		drop := false
		for _, d := range keys {
			drop = drop || (k.Kind == yaml.ScalarNode && k.Value == d)
		}
		if !drop {
			out.Content = append(out.Content, n.Content[i], n.Content[i+1])
		}
	}
	return &out
}

// pendingOverlay is an overlay reached in the stream, with the scope and
// file it stands in.
type pendingOverlay struct {
	o  *overlayNode
	sc *walk.Scope
	fr *walk.Frame
}

// decision is what a guard decides for one target.
type decision uint8

const (
	decidedNo decision = iota
	decidedYes
	undecided // the condition, or an $assert before it, reads an unknown value
)

// Run decides the guard in scope sc and, when it holds, renders the patch:
// a value, or nothing (patched false). A static guard's patch is rendered
// once per cache.
func (g *guarded) Run(r *walk.Renderer, sc *walk.Scope, fr *walk.Frame, cache *patchCache) (d decision, patch walk.Value, patched bool, err error) {
	body := g.body
	if m, ok := body.(*walk.MapNode); ok {
		var unknown bool
		if sc, unknown, err = r.RunPreludes(m, sc, fr); err != nil || unknown {
			return undecided, nil, false, err
		}
	}
	yes := false
	if g.constCond != nil {
		yes = *g.constCond
	} else {
		v, unknown, err := r.EvalBool(g.cond, sc, fr, g.dir)
		if err != nil || unknown {
			return undecided, nil, false, err
		}
		yes = v
	}
	if !yes {
		return decidedNo, nil, false, nil
	}
	if g.static && cache.ready {
		// Each document gets the patch's nodes: count them at each use.
		return decidedYes, cache.v, cache.ok, r.Count(fr, g.key, g.dir, cache.nodes, cache.bytes)
	}
	defer func() {
		if g.static && err == nil {
			nodes, bytes := r.Size(patch)
			*cache = patchCache{v: patch, ok: patched, ready: true, nodes: nodes, bytes: bytes}
		}
	}()
	if m, ok := body.(*walk.MapNode); ok {
		if m.Replaces() {
			patch, patched, err = m.Prods[0].Value(r, sc, fr)
		} else {
			patch, patched, err = r.Merge(m, sc, fr)
		}
		return decidedYes, patch, patched, err
	}
	patch, patched, err = r.Value(body, sc, fr)
	return decidedYes, patch, patched, err
}

// Apply applies the overlay to docs, every document the render gave.
func (p pendingOverlay) Apply(r *walk.Renderer, docs []walk.Value) ([]walk.Value, error) {
	matched, unsure := 0, 0
	// One scope for every document: nothing a patch gives keeps it,
	// and a static patch's list edits read doc from it when they run.
	sc := walk.NewScope(p.sc, 1)
	var cache patchCache
	for i, doc := range docs {
		if err := r.Step(p.fr, p.o.guard.key, "$overlay"); err != nil {
			return nil, err
		}
		next, d, err := overlayDoc(r, p, sc, &cache, doc)
		if err != nil {
			return nil, editingErr(err, docs, i, r.Written)
		}
		switch d {
		case decidedYes:
			matched++
		case undecided:
			unsure++
		}
		docs[i] = next
	}
	if err := p.o.checkExpects(r, p.fr, matched, unsure, len(docs)); err != nil {
		return nil, err
	}
	return docs, nil
}

// overlayDoc applies one overlay to one document, in sc, a child of the
// overlay's scope where doc is bound.
func overlayDoc(r *walk.Renderer, p pendingOverlay, sc *walk.Scope, cache *patchCache, doc walk.Value) (walk.Value, decision, error) {
	sc.BindValue("doc", doc)
	d, patch, patched, err := p.o.guard.Run(r, sc, p.fr, cache)
	switch {
	case err != nil:
		return nil, d, err
	case d == undecided:
		return walk.Unknown{}, d, nil
	case d == decidedNo || !patched || patch == nil:
		return doc, d, nil
	}
	switch patch.(type) {
	case *walk.Map, walk.Unknown:
	default:
		return nil, d, r.ErrAt(p.fr, p.o.n, "", "an overlay's patch must be a mapping (or nothing), got "+walk.ValueKind(patch))
	}
	out, err := merge.Onto(doc, patch)
	return out, d, err
}

// checkExpects checks the number of documents the overlay matched:
// matched for sure, and up to unsure more whose match is not known yet.
func (o *overlayNode) checkExpects(r *walk.Renderer, fr *walk.Frame, matched, unsure, docCount int) error {
	ok, decided := o.expect.holds(matched, matched+unsure)
	if ok || !decided {
		return nil
	}
	at := o.guard.key
	if o.expect.key != nil {
		at = o.expect.key
	}
	return r.ErrAt(fr, at, "$overlay", "this overlay expects "+o.expect.String()+" matching "+plural(o.expect.n, "document")+
		", and "+strconv.Itoa(matched)+" of the "+strconv.Itoa(docCount)+" rendered documents matched"+expectsHint(o.expect))
}

// expectsHint says how to allow an overlay or edit to match nothing.
func expectsHint(e expectation) string {
	if e.key == nil && e.n == 1 {
		return `; write $expects: "0+" if matching none is fine`
	}
	return ""
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// editingErr adds to err which document was being edited: its place among
// the rendered documents, counting from 1, and its manifest ID, with the
// parts that the templates do not write hidden (reference §6).
func editingErr(err error, docs []walk.Value, i int, written func() func(string) bool) error {
	e, ok := err.(*walk.Error)
	if !ok || e.Editing != "" {
		return err
	}
	e.Editing = "document " + strconv.Itoa(i+1)
	if id, ok := manifestID(docs[i]); ok {
		if parts, ok := manifest.Split(id); ok {
			id = manifest.Shown(parts, written())
		} else {
			id = manifest.Shown([4]string{}, nil)
		}
		e.Editing += " (" + id + ")"
	}
	return e
}

// manifestID is the manifest ID of a document, when it has a known one.
func manifestID(doc walk.Value) (string, bool) {
	id, skip, unknown, err := manifest.ID(doc)
	return id, err == nil && !skip && !unknown
}

// Value fails: an overlay does not stand in value position.
func (o *overlayNode) Value(r *walk.Renderer, _ *walk.Scope, fr *walk.Frame) (walk.Value, bool, error) {
	return nil, false, o.misplaced(r, fr)
}

// Multi queues the overlay in the stream, and fails anywhere else.
func (o *overlayNode) Multi(r *walk.Renderer, sc *walk.Scope, fr *walk.Frame, pos walk.Position, dst []walk.Value) ([]walk.Value, error) {
	if pos != walk.PosStream {
		return dst, o.misplaced(r, fr)
	}
	r.AddPending(pendingOverlay{o: o, sc: sc, fr: fr})
	return dst, nil
}

func (o *overlayNode) misplaced(r *walk.Renderer, fr *walk.Frame) error {
	return r.ErrAt(fr, o.guard.key, "$overlay", "an overlay document stands only in the stream, where it edits the other documents; here a file of overlays is included into a value or a sequence: include it at a document root")
}

func init() {
	walk.Register(walk.Directive{Rank: 150, Name: "$overlay", Kind: walk.KindOverlay, Only: walk.AtOverlayRoot,
		Misplaced: "$overlay stands only at the root of a document: an overlay is a document of its own, applied to the other documents once they are rendered",
		Overlay: func(c *walk.Compiler, n *yaml.Node, keys walk.MappingKeys) (walk.Node, *walk.CompileError) {
			return overlay(c, n, keys)
		}})
	walk.Register(walk.Directive{Rank: 160, Name: "$expects", Kind: walk.KindPartner, Only: walk.AtOverlayRoot | walk.AtEditItem,
		Misplaced: "unknown directive $expects: $expects is a directive only beside $overlay, $match or $remove in an overlay; to output a key $expects as data, write $$expects"})
}
