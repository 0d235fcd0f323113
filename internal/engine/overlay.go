package engine

import (
	"regexp"
	"strconv"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/manifest"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
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
	remove bool // $remove: true, the matches are removed (transform.go)
}

// guarded is a condition with the mapping it guards: an overlay's root or a
// $match item. The mapping's $schema, $let and $assert run first, then the
// condition, then the rest of the mapping renders as the patch.
type guarded struct {
	dir       string     // "$overlay" or "$match"
	key       *yaml.Node // the directive's key
	cond      *exprRef
	constCond *bool // a YAML bool written as the condition
	body      tnode // the mapping without the directive and $expects; nil when that is empty
	// static marks a body of plain data and list edits only: it renders
	// to the same patch for every target, since its list edits read doc
	// and item only when they run, from the scope the caller reuses.
	static bool
}

// patchCache keeps the patch of a static guard for the targets after the
// first, within one loop over targets whose scope is reused.
type patchCache struct {
	v            Value
	ok, ready    bool
	nodes, bytes int // the patch's size, counted against the limits at each use
}

// isStatic reports whether t is plain data and list edits only.
func isStatic(t tnode) bool {
	switch t := t.(type) {
	case nil, *constNode:
		return true
	case *editSeq:
		return true
	case *mapNode:
		if len(t.prods) > 0 || t.lets != nil || t.asserts != nil || t.schema != nil {
			return false
		}
		for _, e := range t.entries {
			if !isStatic(e.val) {
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

// isOverlayRoot reports whether n, a document's root, is an overlay.
func isOverlayRoot(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := deref(n.Content[i]); k.Kind == yaml.ScalarNode && k.Value == "$overlay" {
			return true
		}
	}
	return false
}

func (c *compiler) overlay(n *yaml.Node, keys mappingKeys) (tnode, *compileError) {
	p := keys.dirs["$overlay"]
	o := &overlayNode{n: n}
	var err *compileError
	if o.guard, err = c.guard(p, "$overlay", "$overlay"); err != nil {
		return nil, err
	}
	if o.expect, err = compileExpects(keys.dirs, "$overlay"); err != nil {
		return nil, err
	}
	if _, ok := keys.dirs["$remove"]; ok {
		return c.removeOverlay(o, n, keys)
	}
	c.patch = true
	defer func() { c.patch = false }()
	edits := c.edits
	if rest := without(n, "$overlay", "$expects"); len(rest.Content) > 0 {
		if o.guard.body, err = c.node(rest, ""); err != nil {
			return nil, err
		}
	}
	o.guard.static = isStatic(o.guard.body)
	o.edits = c.edits > edits
	return o, nil
}

// guard compiles the condition of directive p (dir) at path.
func (c *compiler) guard(p kvPair, path, dir string) (guarded, *compileError) {
	g := guarded{dir: dir, key: p.k}
	cn := deref(p.v)
	if s, ok := stringScalar(cn); ok {
		g.cond = newExprRef(exprRef{text: s, shown: s, node: cn, path: path, bare: dir})
		return g, nil
	}
	if b, ok := boolScalar(cn); ok {
		g.constCond = &b
		return g, nil
	}
	return g, cerr(cn, path, dir+" takes a CEL expression string that gives a bool, got "+yamlnode.AKind(cn))
}

var expectsForm = regexp.MustCompile(`^([0-9]{1,9})(\+?)$`)

// compileExpects reads the $expects beside the directive at path, or the
// default "1+".
func compileExpects(dirs dirSet, path string) (expectation, *compileError) {
	p, ok := dirs["$expects"]
	if !ok {
		return expectation{n: 1, atLeast: true}, nil
	}
	v := deref(p.v)
	msg := `$expects takes how many items must match: an int (exactly that many) or a string "N+" (at least N), got `
	if v.Kind != yaml.ScalarNode {
		return expectation{}, cerr(v, joinPath(path, "$expects"), msg+yamlnode.AKind(v))
	}
	switch v.ShortTag() {
	case "!!int":
		if m := expectsForm.FindStringSubmatch(v.Value); m != nil {
			n, _ := strconv.Atoi(m[1])
			return expectation{n: n, key: p.k}, nil
		}
	case "!!str":
		if m := expectsForm.FindStringSubmatch(v.Value); m != nil && m[2] == "+" {
			n, _ := strconv.Atoi(m[1])
			return expectation{n: n, atLeast: true, key: p.k}, nil
		}
		return expectation{}, cerr(v, joinPath(path, "$expects"), msg+quote(v.Value))
	}
	return expectation{}, cerr(v, joinPath(path, "$expects"), msg+yamlnode.AKind(v))
}

// without is mapping n without the given keys.
func without(n *yaml.Node, keys ...string) *yaml.Node {
	out := *n
	out.Content = make([]*yaml.Node, 0, len(n.Content))
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := deref(n.Content[i])
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
	sc *scope
	fr *frame
}

// decision is what a guard decides for one target.
type decision uint8

const (
	decidedNo decision = iota
	decidedYes
	undecided // the condition, or an $assert before it, reads an unknown value
)

// run decides the guard in scope sc and, when it holds, renders the patch:
// a value, or nothing (patched false). A static guard's patch is rendered
// once per cache.
func (g *guarded) run(r *renderer, sc *scope, fr *frame, cache *patchCache) (d decision, patch Value, patched bool, err error) {
	body := g.body
	if m, ok := body.(*mapNode); ok {
		var unknown bool
		if sc, unknown, err = r.prelude(m, sc, fr); err != nil || unknown {
			return undecided, nil, false, err
		}
	}
	yes := false
	if g.constCond != nil {
		yes = *g.constCond
	} else {
		v, unknown, err := r.evalBool(g.cond, sc, fr, g.dir)
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
		return decidedYes, cache.v, cache.ok, r.count(fr, g.key, g.dir, cache.nodes, cache.bytes)
	}
	defer func() {
		if g.static && err == nil {
			o := outputSize{maxNodes: r.e.opts.MaxNodes, maxBytes: r.e.opts.MaxOutputBytes}
			o.add(patch)
			*cache = patchCache{v: patch, ok: patched, ready: true, nodes: o.nodes, bytes: o.bytes}
		}
	}()
	if m, ok := body.(*mapNode); ok {
		if m.replaces() {
			patch, patched, err = m.prods[0].value(r, sc, fr)
		} else {
			patch, patched, err = r.merge(m, sc, fr)
		}
		return decidedYes, patch, patched, err
	}
	patch, patched, err = r.value(body, sc, fr)
	return decidedYes, patch, patched, err
}

// applyOverlays applies the overlays reached in the stream to docs, in
// stream order.
func (r *renderer) applyOverlays(docs []Value) ([]Value, error) {
	for _, p := range r.overlays {
		matched, unsure := 0, 0
		// One scope for every document: nothing a patch gives keeps it,
		// and a static patch's list edits read doc from it when they run.
		sc := newScopeCap(p.sc, 1)
		var cache patchCache
		for i, doc := range docs {
			if err := r.step(p.fr, p.o.guard.key, "$overlay"); err != nil {
				return nil, err
			}
			next, d, err := r.overlayDoc(p, sc, &cache, doc)
			if err != nil {
				return nil, editingErr(err, docs, i, r.written)
			}
			switch d {
			case decidedYes:
				matched++
			case undecided:
				unsure++
			}
			if p.o.remove && d != decidedNo {
				next = nil // removed; undecided: the stream's length is not known
			}
			docs[i] = next
		}
		if err := p.o.checkExpects(r, p.fr, matched, unsure); err != nil {
			return nil, err
		}
		if p.o.remove && unsure > 0 {
			return nil, errUnknownShape
		}
		if p.o.remove && matched > 0 {
			docs = r.removeDocs(docs)
		}
	}
	return docs, nil
}

// overlayDoc applies one overlay to one document, in sc, a child of the
// overlay's scope where doc is bound.
func (r *renderer) overlayDoc(p pendingOverlay, sc *scope, cache *patchCache, doc Value) (Value, decision, error) {
	sc.bindValue("doc", doc)
	d, patch, patched, err := p.o.guard.run(r, sc, p.fr, cache)
	switch {
	case err != nil:
		return nil, d, err
	case d == undecided:
		return Unknown{}, d, nil
	case d == decidedNo || !patched || patch == nil:
		return doc, d, nil
	}
	switch patch.(type) {
	case *Map, Unknown:
	default:
		return nil, d, r.errAt(p.fr, p.o.n, "", "an overlay's patch must be a mapping (or nothing), got "+valueKind(patch))
	}
	out, err := merge.Onto(doc, patch)
	return out, d, err
}

// checkExpects checks the number of documents the overlay matched:
// matched for sure, and up to unsure more whose match is not known yet.
func (o *overlayNode) checkExpects(r *renderer, fr *frame, matched, unsure int) error {
	ok, decided := o.expect.holds(matched, matched+unsure)
	if ok || !decided {
		return nil
	}
	at := o.guard.key
	if o.expect.key != nil {
		at = o.expect.key
	}
	return r.errAt(fr, at, "$overlay", "this overlay expects "+o.expect.String()+" matching "+plural(o.expect.n, "document")+
		", and "+strconv.Itoa(matched)+" of the "+strconv.Itoa(r.docCount)+" rendered documents matched"+expectsHint(o.expect))
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
func editingErr(err error, docs []Value, i int, written func() func(string) bool) error {
	e, ok := err.(*Error)
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

// written reports the strings that the render's templates, the main one
// and every file it included, write (manifest.Written).
func (r *renderer) written() func(string) bool {
	var texts []string
	if r.main != nil {
		texts = append(texts, r.main.text)
	}
	for _, f := range r.files {
		if f != r.main {
			texts = append(texts, f.text)
		}
	}
	return manifest.Written(texts...)
}

// manifestID is the manifest ID of a document, when it has a known one.
func manifestID(doc Value) (string, bool) {
	id, skip, unknown, err := manifest.ID(doc)
	return id, err == nil && !skip && !unknown
}

func (o *overlayNode) misplaced(r *renderer, fr *frame) error {
	return r.errAt(fr, o.guard.key, "$overlay", "an overlay document stands only in the stream, where it edits the other documents; here a file of overlays is included into a value or a sequence: include it at a document root")
}
