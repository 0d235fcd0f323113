package overlay

import (
	"strconv"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/manifest"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// Applying an overlay once every document is rendered: its guard decides
// each document, and its patch merges into those it matches.

// patchCache keeps the patch of a static guard for the targets after the
// first, within one loop over targets whose scope is reused.
type patchCache struct {
	v            value.Value
	ok, ready    bool
	nodes, bytes int // the patch's size, counted against the limits at each use
}

// pendingOverlay is an overlay reached in the stream, with the scope and
// file it stands in.
type pendingOverlay struct {
	o  *overlayNode
	sc *scope.Scope
	fr *diag.Frame
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
func (g *guarded) Run(r tree.Renderer, sc *scope.Scope, fr *diag.Frame, cache *patchCache) (d decision, patch value.Value, patched bool, err error) {
	body := g.body
	if d, sc, err = g.decide(r, sc, fr); d != decidedYes || err != nil {
		return d, nil, false, err
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
	if m, ok := body.(*tree.MapNode); ok {
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

// decide decides the guard in scope sc, and gives the scope its preludes
// leave for the patch.
func (g *guarded) decide(r tree.Renderer, sc *scope.Scope, fr *diag.Frame) (decision, *scope.Scope, error) {
	if m, ok := g.body.(*tree.MapNode); ok {
		var unknown bool
		var err error
		if sc, unknown, err = r.RunPreludes(m, sc, fr); err != nil || unknown {
			return undecided, sc, err
		}
	}
	yes := false
	if g.constCond != nil {
		yes = *g.constCond
	} else {
		v, unknown, err := r.EvalBool(g.cond, sc, fr, g.dir)
		if err != nil || unknown {
			return undecided, sc, err
		}
		yes = v
	}
	if !yes {
		return decidedNo, sc, nil
	}
	return decidedYes, sc, nil
}

// matchesAfterTransforms counts the documents the overlay would match
// once the transforms of the render (and the Namespace option) have
// changed them: for the error of an overlay that matches nothing, written
// against what the transforms make of the documents. Any error gives 0.
func (p pendingOverlay) matchesAfterTransforms(r tree.Renderer, docs []value.Value) int {
	late := r.Late()
	ns := r.Options().Namespace
	if len(late) == 0 && ns == "" {
		return 0
	}
	out := append([]value.Value(nil), docs...)
	var err error
	for _, t := range late {
		if out, err = t.Apply(r, out); err != nil {
			return 0
		}
	}
	if ns != "" {
		if out, err = ApplyNamespace(r, out, p.fr, ns); err != nil {
			return 0
		}
	}
	sc := scope.New(p.sc, 1)
	n := 0
	for _, doc := range out {
		sc.BindValue("doc", doc)
		if d, _, err := p.o.guard.decide(r, sc, p.fr); err == nil && d == decidedYes {
			n++
		}
	}
	return n
}

// Apply applies the overlay to docs, every document the render gave.
func (p pendingOverlay) Apply(r tree.Renderer, docs []value.Value) ([]value.Value, error) {
	matched, unsure := 0, 0
	// One scope for every document: nothing a patch gives keeps it,
	// and a static patch's list edits read doc from it when they run.
	sc := scope.New(p.sc, 1)
	var cache patchCache
	for i, doc := range docs {
		if err := r.Step(p.fr, p.o.guard.key, "$overlay"); err != nil {
			return nil, err
		}
		next, d, err := overlayDoc(r, p, sc, &cache, doc)
		if err != nil {
			return nil, editingErr(err, docs, i, r)
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
	if err := p.o.checkExpects(r, p.fr, matched, unsure, len(docs)); err != nil {
		if matched == 0 && unsure == 0 {
			if n := p.matchesAfterTransforms(r, docs); n > 0 {
				return nil, afterTransformsHint(err, n)
			}
		}
		return nil, err
	}
	if p.o.remove && unsure > 0 {
		return nil, tree.ErrUnknownShape
	}
	if p.o.remove && matched > 0 {
		docs = r.DropRemoved(docs)
	}
	return docs, nil
}

// overlayDoc applies one overlay to one document, in sc, a child of the
// overlay's scope where doc is bound.
func overlayDoc(r tree.Renderer, p pendingOverlay, sc *scope.Scope, cache *patchCache, doc value.Value) (value.Value, decision, error) {
	sc.BindValue("doc", doc)
	d, patch, patched, err := p.o.guard.Run(r, sc, p.fr, cache)
	switch {
	case err != nil:
		return nil, d, err
	case d == undecided:
		return value.Unknown{}, d, nil
	case d == decidedNo || !patched || patch == nil:
		return doc, d, nil
	}
	switch patch.(type) {
	case *value.Map, value.Unknown:
	default:
		return nil, d, r.ErrAt(p.fr, p.o.n, "", "an overlay's patch must be a mapping (or nothing), got "+tree.ValueKind(patch))
	}
	out, err := merge.Onto(doc, patch)
	return out, d, err
}

// editingErr adds to err which document was being edited: its place among
// the rendered documents, counting from 1, and its manifest ID, whole
// unless the render hides keys and names (reference §6).
func editingErr(err error, docs []value.Value, i int, r tree.Inputs) error {
	e, ok := err.(*diag.Error)
	if !ok || e.Editing != "" {
		return err
	}
	e.Editing = "document " + strconv.Itoa(i+1)
	if id, ok := manifestID(docs[i]); ok {
		e.Editing += " (" + manifest.ForError(id, r.Options().HideKeys, r.Written) + ")"
	}
	return e
}

// manifestID is the manifest ID of a document, when it has a known one.
func manifestID(doc value.Value) (string, bool) {
	id, skip, unknown, err := manifest.ID(doc)
	return id, err == nil && !skip && !unknown
}
