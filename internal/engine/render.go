package engine

import (
	"context"
	"errors"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/fileread"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"go.yaml.in/yaml/v3"
)

// position is where a node stands (reference §1).
type position uint8

const (
	posValue  position = iota // the value of a key, $value, or a $with/$let entry
	posItem                   // an element of a sequence
	posStream                 // the root of a document
)

// errUnknownShape says that how many items or documents a node gives
// depends on an unknown value. The enclosing sequence (or the stream)
// becomes unknown as a whole.
var errUnknownShape = errors.New("shape depends on an unknown value")

// frame is the file being rendered and how it was reached.
type frame struct {
	file  string   // the file as shown in errors
	dir   string   // directory its $include paths resolve against
	real  string   // cleaned path, for cycle detection ("" for inline)
	chain []Pos    // $include positions that led here, innermost first
	files []string // real paths of the files on the chain, outermost first
}

// renderer holds the state of one render.
type renderer struct {
	e      *Engine
	ctx    context.Context
	budget uint64
	nodes  int
	bytes  int
	files  map[string]*compiledFile // read and parsed at most once per render
	steps  int
	// overlays are the overlays reached in the stream, in order; they
	// apply once every document is rendered (reference §8).
	overlays []pendingOverlay
	docCount int // documents the overlays edit
	// transforms are the transforms reached in the stream, in order; they
	// apply after the overlays (reference §10, transform.go).
	transforms []pendingTransform
	kept       []Pos         // the origins of the documents, while overlays remove some
	main       *compiledFile // the template rendered; with files, what it wrote

	// schemaTexts are the files $schema includes, read once per render.
	schemaTexts map[string][]byte
}

func (e *Engine) newRenderer(ctx context.Context) *renderer {
	if ctx == nil {
		ctx = context.Background()
	}
	return &renderer{e: e, ctx: ctx, budget: e.opts.MaxCostPerRender}
}

// Render renders a template with variables and returns its documents.
// Documents that render to nothing or null are dropped. Errors are *Error.
func (e *Engine) Render(ctx context.Context, src Source, vars map[string]Value) ([]Value, error) {
	docs, _, err := e.render(ctx, sourceFrame(src), src.Text, vars, false)
	return docs, err
}

// Document is a rendered document and where the template produced it.
type Document struct {
	Value Value
	// Origin is the node of the template that produced the document: the
	// root of a document, or the key of the directive that produced
	// several ($for, $include) at a document root.
	Origin Pos
}

// RenderDocuments is Render that also says where each document came from,
// so that an error about a document (two with the same manifest ID) can
// point into the template. When the number of documents is not known
// yet, it returns the one document UnknownStream.
func (e *Engine) RenderDocuments(ctx context.Context, src Source, vars map[string]Value) ([]Document, error) {
	docs, origins, err := e.render(ctx, sourceFrame(src), src.Text, vars, true)
	if err != nil {
		return nil, err
	}
	out := make([]Document, len(docs))
	for i, d := range docs {
		out[i] = Document{Value: d}
		if origins != nil { // nil for the unknown stream
			out[i].Origin = origins[i]
		}
	}
	return out, nil
}

// sourceFrame is the frame of a source's own file.
func sourceFrame(src Source) *frame {
	fr := &frame{file: src.Name, dir: src.BaseDir}
	if src.Name == "" {
		fr.file = InlineName
	} else {
		fr.dir = filepath.Dir(src.Name)
		fr.real = filepath.Clean(src.Name)
		fr.files = []string{fr.real}
	}
	if fr.dir == "" {
		fr.dir = "."
	}
	return fr
}

// RenderFile reads the template at path through the Loader and renders it.
// Its $include directives resolve against the file's directory.
func (e *Engine) RenderFile(ctx context.Context, path string, vars map[string]Value) ([]Value, error) {
	src, err := e.LoadFile(ctx, path)
	if err != nil {
		return nil, err
	}
	return e.Render(ctx, src, vars)
}

// LoadFile reads the template at path through the Loader, as the Source
// RenderFile renders: a regular file of at most MaxTemplateBytes, the read
// stopping when ctx is cancelled.
func (e *Engine) LoadFile(ctx context.Context, path string) (Source, error) {
	text, err := e.opts.Loader.ReadFile(ctx, path, e.opts.MaxTemplateBytes)
	var fe *fileread.Error
	if errors.As(err, &fe) && errors.Is(err, fileread.ErrTooLarge) {
		size := "larger than"
		if fe.Size > 0 {
			size = strconv.FormatInt(fe.Size, 10) + " bytes, more than"
		}
		return Source{}, &Error{Pos: Pos{File: path, Line: 1, Column: 1}, Offset: -1, Limit: "MaxTemplateBytes",
			Msg: "template is " + size + " MaxTemplateBytes (" + itoa(e.opts.MaxTemplateBytes) + "); raise the engine option MaxTemplateBytes"}
	}
	if err != nil {
		return Source{}, &Error{Pos: Pos{File: path, Line: 1, Column: 1}, Msg: "cannot read template: " + loadErrText(err), Offset: -1}
	}
	return Source{Name: path, Text: text}, nil
}

// render renders the documents of text and, with origins, the position of
// the node that produced each.
func (e *Engine) render(ctx context.Context, fr *frame, text []byte, vars map[string]Value, origins bool) ([]Value, []Pos, error) {
	if len(text) > e.opts.MaxTemplateBytes {
		return nil, nil, &Error{Pos: Pos{File: fr.file, Line: 1, Column: 1}, Offset: -1, Limit: "MaxTemplateBytes",
			Msg: "template is " + itoa(len(text)) + " bytes, more than MaxTemplateBytes (" + itoa(e.opts.MaxTemplateBytes) + "); raise the engine option MaxTemplateBytes"}
	}
	r := e.newRenderer(ctx)
	f := e.files.get(text)
	r.main = f
	if fr.real != "" {
		r.files = map[string]*compiledFile{fr.real: f}
	}
	if f.err != nil {
		return nil, nil, r.compileErr(fr, f.err)
	}
	if err := r.checkDepth(f, fr); err != nil {
		return nil, nil, err
	}
	sc := rootScope(vars)
	docs := make([]Value, 0, len(f.docs))
	var at []Pos
	for _, d := range f.docs {
		next, pre, err := r.preamble(d, sc, fr)
		if errors.Is(err, errUnknownShape) {
			return []Value{UnknownStream}, nil, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if pre {
			sc = next
			continue
		}
		n := len(docs)
		docs, err = r.multi(d, sc, fr, posStream, docs)
		if errors.Is(err, errUnknownShape) {
			return []Value{UnknownStream}, nil, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if origins {
			at = appendOrigins(at, docOrigin(d, fr), len(docs)-n)
		}
	}
	out := docs[:0]
	kept := at[:0]
	for i, d := range docs {
		if d != nil {
			out = append(out, d)
			if origins {
				kept = append(kept, at[i])
			}
		}
	}
	if len(r.overlays) > 0 {
		r.docCount = len(out)
		r.kept = kept
		var err error
		if out, err = r.applyOverlays(out); errors.Is(err, errUnknownShape) {
			return []Value{UnknownStream}, nil, nil
		} else if err != nil {
			return nil, nil, err
		}
		kept = r.kept
	}
	if len(r.transforms) > 0 || r.e.opts.Namespace != "" {
		var err error
		if out, err = r.applyTransforms(out, fr); err != nil {
			return nil, nil, err
		}
	}
	return out, kept, nil
}

// countValue counts a value inserted whole (what an exact $eval gives,
// often a variable's value) with its real size. A value that holds
// another many times by reference (`${{ x }}` for an x that holds the
// value before it twice, level after level) is small in memory and may be
// exponential once written, so it is counted as written. The walk stops
// at the limits, so it costs at most what writing the value would.
func (r *renderer) countValue(fr *frame, n *yaml.Node, path string, v Value) error {
	switch x := v.(type) {
	case *Map, []Value:
	case string:
		return r.count(fr, n, path, 1, len(x))
	default:
		return r.count(fr, n, path, 1, 8)
	}
	o := outputSize{maxNodes: r.e.opts.MaxNodes - r.nodes, maxBytes: r.e.opts.MaxOutputBytes - r.bytes}
	o.add(v)
	return r.count(fr, n, path, o.nodes, o.bytes)
}

// outputSize counts the nodes and bytes of values as the emitters write
// them, up to limits.
type outputSize struct {
	nodes, bytes       int
	maxNodes, maxBytes int
}

// add counts v and reports whether the counts stay within the limits.
func (o *outputSize) add(v Value) bool {
	o.nodes++
	switch x := v.(type) {
	case string:
		o.bytes += len(x) + 1
	case *Map:
		for i := 0; i < x.Len(); i++ {
			k, e := x.At(i)
			o.bytes += len(k) + 2
			if !o.add(e) {
				return false
			}
		}
	case []Value:
		for _, e := range x {
			if !o.add(e) {
				return false
			}
		}
	default:
		o.bytes += 4
	}
	return o.nodes <= o.maxNodes && o.bytes <= o.maxBytes
}

// preamble runs document d when it is a preamble (reference §1): a root
// mapping with only $schema, $let and $assert, and at least $let. It gives
// no document; its bindings, $schema defaults included, are the scope of
// the later documents of the same file. pre reports a preamble; an $assert
// that cannot be decided yet gives errUnknownShape, since whether the
// later documents render is not known.
func (r *renderer) preamble(d tnode, sc *scope, fr *frame) (next *scope, pre bool, err error) {
	if !isPreamble(d) {
		return sc, false, nil
	}
	next, unknown, err := r.prelude(d.(*mapNode), sc, fr) //nolint:forcetypeassert // isPreamble checked it
	if err != nil {
		return nil, true, err
	}
	if unknown {
		return nil, true, errUnknownShape
	}
	return next, true, nil
}

// isPreamble reports whether document root t is a preamble: a mapping with
// only $schema, $let and $assert, and at least $let.
func isPreamble(t tnode) bool {
	m, ok := t.(*mapNode)
	return ok && len(m.prods) == 0 && m.nRegular == 0 && len(m.lets) > 0
}

// docOrigin is the position of what produced the documents of root d:
// the key of its producer when that producer replaces the root ($for and
// $include give several documents), otherwise the root itself.
func docOrigin(d tnode, fr *frame) Pos {
	var n *yaml.Node
	switch t := d.(type) {
	case *mapNode:
		n = t.n
		if t.replaces() {
			n = t.prods[0].keyNode()
		}
	case *seqNode:
		n = t.n
	case *constNode:
		n = t.n
	}
	if n == nil {
		return Pos{File: fr.file, Line: 1, Column: 1}
	}
	return Pos{File: fr.file, Line: n.Line, Column: n.Column}
}

func appendOrigins(at []Pos, p Pos, n int) []Pos {
	for range n {
		at = append(at, p)
	}
	return at
}

// rootScope binds the caller's variables; each gets its CEL form on first
// use (scope.lookup).
func rootScope(vars map[string]Value) *scope {
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	sc := &scope{binds: make([]scopeVar, len(names))}
	for i, k := range names {
		sc.binds[i].name = k
		sc.setValue(i, vars[k])
	}
	return sc
}

// Eval evaluates one CEL expression with variables.
func (e *Engine) Eval(ctx context.Context, expr string, vars map[string]Value) (Value, error) {
	r := e.newRenderer(ctx)
	sc := rootScope(vars)
	fr := &frame{file: InlineName, dir: "."}
	x := newExprRef(exprRef{text: expr, shown: expr, node: &yaml.Node{Line: 1, Column: 1}, bare: "eval()"})
	v, err := r.evalExpr(x, sc, fr)
	if err != nil {
		return nil, err
	}
	out, present, cerr := celenv.FromCELOutput(v)
	if cerr != nil {
		return nil, r.resultErr(fr, x, cerr)
	}
	if !present {
		return nil, nil
	}
	return out, nil
}

// value renders t in value position.
func (r *renderer) value(t tnode, sc *scope, fr *frame) (Value, bool, error) {
	switch t := t.(type) {
	case *constNode:
		if err := r.count(fr, t.n, t.path, t.nodes, t.bytes); err != nil {
			return nil, false, err
		}
		return t.v, true, nil
	case *seqNode:
		out := make([]Value, 0, len(t.elems))
		for _, el := range t.elems {
			var err error
			out, err = r.multi(el, sc, fr, posItem, out)
			if errors.Is(err, errUnknownShape) {
				return Unknown{}, true, nil
			}
			if err != nil {
				return nil, false, err
			}
		}
		if err := r.count(fr, t.n, t.path, 1, 2); err != nil {
			return nil, false, err
		}
		return out, true, nil
	case *mapNode:
		return r.mapValue(t, sc, fr)
	case *editSeq:
		return &listEdit{seq: t, r: r, sc: sc, fr: fr}, true, nil
	case *overlayNode:
		return nil, false, t.misplaced(r, fr)
	case *transformNode:
		return nil, false, t.misplaced(r, fr)
	}
	return nil, false, nil
}

// multi renders t in item or stream position, appending what it gives.
func (r *renderer) multi(t tnode, sc *scope, fr *frame, pos position, dst []Value) ([]Value, error) {
	switch t := t.(type) {
	case *mapNode:
		return r.mapMulti(t, sc, fr, pos, dst)
	case *overlayNode:
		if pos != posStream {
			return dst, t.misplaced(r, fr)
		}
		r.overlays = append(r.overlays, pendingOverlay{o: t, sc: sc, fr: fr})
		return dst, nil
	case *transformNode:
		if pos != posStream {
			return dst, t.misplaced(r, fr)
		}
		r.transforms = append(r.transforms, pendingTransform{t: t, sc: sc, fr: fr})
		return dst, nil
	}
	v, ok, err := r.value(t, sc, fr)
	return appendIf(dst, v, ok, err)
}

// appendIf adds what a value-position render gave to dst: the value, or
// nothing.
func appendIf(dst []Value, v Value, ok bool, err error) ([]Value, error) {
	if err == nil && ok {
		dst = append(dst, v)
	}
	return dst, err
}

// splice renders a body written as a YAML sequence in item or stream
// position: its items are added in place.
func (r *renderer) splice(body tnode, key *yaml.Node, path string, sc *scope, fr *frame, pos position, dst []Value) ([]Value, error) {
	if pos == posStream {
		return dst, r.errAt(fr, key, path, "a "+key.Value+" body written as a sequence cannot stand at a document root: documents are not lists; write a mapping per document, or put the sequence under a key")
	}
	switch b := body.(type) {
	case *constNode:
		items, _ := b.v.([]Value)
		if err := r.count(fr, key, path, b.nodes, b.bytes); err != nil {
			return dst, err
		}
		return append(dst, items...), nil
	case *seqNode:
		for _, el := range b.elems {
			var err error
			if dst, err = r.multi(el, sc, fr, posItem, dst); err != nil {
				return dst, err
			}
		}
		return dst, nil
	}
	return r.multi(body, sc, fr, pos, dst)
}

// count charges output nodes and bytes against the render's limits.
func (r *renderer) count(fr *frame, n *yaml.Node, path string, nodes, bytes int) error {
	r.nodes += nodes
	r.bytes += bytes
	if r.nodes > r.e.opts.MaxNodes {
		return r.limitErr(fr, n, path, "MaxNodes", "the output has more than MaxNodes ("+itoa(r.e.opts.MaxNodes)+") nodes")
	}
	if r.bytes > r.e.opts.MaxOutputBytes {
		return r.limitErr(fr, n, path, "MaxOutputBytes", "the output is larger than MaxOutputBytes ("+itoa(r.e.opts.MaxOutputBytes)+" bytes)")
	}
	return nil
}

// checkDepth enforces MaxDepth on a compiled file.
func (r *renderer) checkDepth(f *compiledFile, fr *frame) error {
	limit := r.e.opts.MaxDepth
	if f.depth > limit {
		return r.limitErr(fr, f.deepest, "", "MaxDepth", "the template nests deeper than MaxDepth ("+itoa(limit)+" levels of mappings and sequences)")
	}
	if n := len(f.preambles); n > 0 && f.depth+n > limit {
		// Each preamble nests the later documents one level deeper, and a
		// lookup walks every level: unbounded, they would make a render
		// quadratic in the file's size.
		at := f.preambles[min(n-1, limit-f.depth)]
		return r.limitErr(fr, at, "", "MaxDepth", "the template has "+itoa(n)+" preambles, each nesting the documents after it one level deeper, which with "+
			itoa(f.depth)+" levels of mappings and sequences is deeper than MaxDepth ("+itoa(limit)+"); put their $let entries into fewer preambles")
	}
	return nil
}

// tick is called once per $for iteration: it counts iterations against
// MaxIterations and notices cancellation.
func (r *renderer) tick(fr *frame, n *yaml.Node, path string) error {
	if r.steps+1 > r.e.opts.MaxIterations {
		return r.limitErr(fr, n, path, "MaxIterations", "the render runs more than MaxIterations ("+itoa(r.e.opts.MaxIterations)+") $for iterations")
	}
	return r.pulse(fr, n, path)
}

// step is called once for each target an overlay or a list edit is tried
// on: each costs one unit of the render's CEL budget, even when its
// condition is a YAML bool, so that many overlays on many documents stop at
// MaxCostPerRender instead of running for hours.
func (r *renderer) step(fr *frame, n *yaml.Node, path string) error {
	if r.budget == 0 {
		return r.limitErr(fr, n, path, "MaxCostPerRender", "the render's CEL cost budget is used up (MaxCostPerRender), each overlay tried on each document costing one")
	}
	r.budget--
	return r.pulse(fr, n, path)
}

// pulse is called once per step of any loop (a $for iteration, an overlay
// or list edit tried on one target): it notices cancellation.
func (r *renderer) pulse(fr *frame, n *yaml.Node, path string) error {
	r.steps++
	if r.steps&63 == 0 {
		if err := r.ctx.Err(); err != nil {
			return r.errAt(fr, n, path, "rendering cancelled: "+err.Error())
		}
	}
	return nil
}

func (r *renderer) limitErr(fr *frame, n *yaml.Node, path, limit, msg string) error {
	e := r.errAt(fr, n, path, msg+"; raise the engine option "+limit+" if this is intended")
	e.Limit = limit
	return e
}

// errAt builds an *Error at node n of the file in fr.
func (r *renderer) errAt(fr *frame, n *yaml.Node, path, msg string) *Error {
	p := Pos{File: fr.file, Line: 1, Column: 1}
	if n != nil && n.Line > 0 {
		p.Line, p.Column = n.Line, n.Column
	}
	return &Error{Pos: p, Path: path, Msg: msg, Offset: -1, Chain: fr.chain}
}

// resultErr is the error for an expression's result as a whole, one that
// cannot be converted or written out: the caret goes under the
// expression's first character, past the spaces after "${{".
func (r *renderer) resultErr(fr *frame, x *exprRef, err error) error {
	off := x.off + len(x.text) - len(strings.TrimLeft(x.text, " \t\r\n"))
	return &Error{Pos: Pos{File: fr.file, Line: x.node.Line, Column: x.node.Column}, Path: x.path,
		Msg: err.Error(), Expr: x.shown, Offset: off, Chain: fr.chain}
}

func (r *renderer) compileErr(fr *frame, c *compileError) error {
	p := Pos{File: fr.file, Line: c.line, Column: c.column}
	if c.node != nil {
		p.Line, p.Column = c.node.Line, c.node.Column
	}
	if p.Line == 0 {
		p.Line, p.Column = 1, 1
	}
	return &Error{Pos: p, Path: c.path, Msg: c.msg, Expr: c.expr, Offset: c.offset, Chain: fr.chain}
}

// evalExpr compiles (through the cache) and evaluates one expression.
func (r *renderer) evalExpr(x *exprRef, sc *scope, fr *frame) (ref.Val, error) {
	if x.fast != nil {
		if v, ok := r.fastPath(x.fast, sc); ok {
			return v, nil
		}
	}
	p, xerr := r.e.progs.Compile(x.text, sc.has)
	if xerr == nil {
		var v ref.Val
		v, xerr = p.Eval(r.ctx, sc, &r.budget)
		if xerr == nil {
			return v, nil
		}
	}
	off := -1
	if xerr.Offset >= 0 {
		off = x.off + xerr.Offset
	}
	p0 := Pos{File: fr.file, Line: x.node.Line, Column: x.node.Column}
	msg, hinted := explain(xerr.Msg, sc)
	if !hinted {
		// A close name is the likelier mistake; one hint at a time.
		msg += hint.Bare(x.bare, x.text, xerr.Msg)
	}
	return nil, &Error{Pos: p0, Path: x.path, Msg: msg, Expr: x.shown, Offset: off, Chain: fr.chain, Limit: xerr.Limit}
}

// explain rewrites two CEL messages users meet often into plain words:
// a name that is not in scope (with the closest name that is, or the CEL
// spelling of a word from another language), and a CEL reserved word used
// as a name. Names are template text or variable names, never values.
// hinted reports that the message already says what was probably meant.
func explain(msg string, sc *scope) (out string, hinted bool) {
	const undeclared = "no such attribute(s): "
	if rest, ok := strings.CutPrefix(msg, undeclared); ok {
		name, _, _ := strings.Cut(rest, ".")
		name, _, _ = strings.Cut(name, ",")
		name = strings.TrimSpace(name)
		out = "undeclared reference to '" + name + "': no variable of that name is in scope"
		if s := closestName(name, sc); s != "" {
			return out + "; did you mean '" + s + "'?", true
		}
		if w, ok := hint.ForeignName(name); ok {
			return out + "; CEL writes " + w, true
		}
		return out, false
	}
	if i := strings.Index(msg, "reserved identifier: "); i >= 0 {
		word := strings.Fields(msg[i+len("reserved identifier: "):])
		if len(word) > 0 {
			return msg + " (" + word[0] + " is a reserved word in CEL and cannot name a variable: give the variable another name)", true
		}
	}
	return msg, false
}

// closestName finds the name in scope nearest to name, if one is close.
func closestName(name string, sc *scope) string {
	var names []string
	seen := map[string]bool{}
	for c := sc; c != nil; c = c.parent {
		for _, b := range c.binds {
			if !seen[b.name] {
				seen[b.name] = true
				names = append(names, b.name)
			}
		}
	}
	return hint.Nearest(name, names, hint.TypoLimit(name), false)
}

// fastPath reads a variable, or a chain of field selections on a map from
// the template or the variables, straight from the scope. Anything unusual
// (a missing name or key, a value that is not such a map, an exhausted
// budget) returns false, and the expression runs through CEL, which gives
// the exact result or error.
func (r *renderer) fastPath(path []string, sc *scope) (ref.Val, bool) {
	if len(path) > 1 {
		v, ok := r.fastValue(path, sc)
		if !ok {
			return nil, false
		}
		return celenv.ToCEL(v), true
	}
	if r.budget < 1 {
		return nil, false
	}
	v, ok := sc.lookup(path[0])
	if !ok || v == nil || types.IsError(v) {
		return nil, false
	}
	r.budget--
	return v, true
}

// fastValue reads a variable bound from an engine value, or a field chain
// whose root is such a value or a map from the template or the variables:
// it returns the engine value stored there, exactly what CEL would give
// back after converting it both ways (celenv.FromCEL(celenv.ToCEL(v)) is v for every kind
// scope.setValue keeps).
func (r *renderer) fastValue(path []string, sc *scope) (Value, bool) {
	cost := uint64(len(path))
	if cost == 0 || r.budget < cost || cost > r.e.opts.MaxCostPerExpression {
		return nil, false
	}
	root := sc.find(path[0])
	if root == nil {
		return nil, false
	}
	v := root.raw
	if v == nil {
		m, ok := celenv.AsMap(root.val)
		if !ok {
			return nil, false
		}
		v = m
	}
	for _, name := range path[1:] {
		switch x := v.(type) {
		case *Map:
			e, ok := x.Get(name)
			if !ok {
				return nil, false
			}
			v = e
		case Unknown:
			// A field of a value not known yet: whatever its type, the
			// field's is not known.
			r.budget -= cost
			return Unknown{}, true
		default:
			return nil, false
		}
	}
	r.budget -= cost
	return v, true
}

// evalBool evaluates a condition. unknown reports an undecidable one.
func (r *renderer) evalBool(x *exprRef, sc *scope, fr *frame, what string) (val, unknown bool, err error) {
	if x.eq != nil && r.budget > 0 {
		// A string compared with a literal needs no CEL program. Anything
		// else found there (a number, a missing key) goes through CEL,
		// which gives the exact result or error.
		if v, ok := r.fastValue(x.eq.path, sc); ok {
			switch v := v.(type) {
			case string:
				r.budget--
				return v == x.eq.lit, false, nil
			case Unknown:
				return false, true, nil
			}
		}
	}
	v, err := r.evalExpr(x, sc, fr)
	if err != nil {
		return false, false, err
	}
	switch b := v.(type) {
	case types.Bool:
		return bool(b), false, nil
	case *types.Unknown:
		return false, true, nil
	}
	return false, false, &Error{Pos: Pos{File: fr.file, Line: x.node.Line, Column: x.node.Column}, Path: x.path,
		Msg: what + " must be a bool, got " + celenv.TypeName(v) + "; " + hint.NoTruthiness, Expr: x.shown, Offset: -1, Chain: fr.chain}
}

// valueKind names the kind of an engine value, for messages. It never
// shows the value itself.
func valueKind(v Value) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a bool"
	case int64:
		return "an int"
	case float64:
		return "a double"
	case string:
		return "a string"
	case *Map:
		return "a mapping"
	case []Value:
		return "a list"
	case Unknown:
		return "an unknown value"
	case *listEdit:
		return "list edits"
	}
	return "a value"
}

func itoa(i int) string     { return strconv.Itoa(i) }
func quote(s string) string { return strconv.Quote(s) }
