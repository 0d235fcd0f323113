package walk

import (
	"context"
	"errors"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
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

// Position is where a node stands (reference §1).
type Position uint8

const (
	PosValue  Position = iota // the value of a key, $value, or a $with/$let entry
	PosItem                   // an element of a sequence
	PosStream                 // the root of a document
)

// ErrUnknownShape says that how many items or documents a node gives
// depends on an unknown value. The enclosing sequence (or the stream)
// becomes unknown as a whole.
var ErrUnknownShape = errors.New("shape depends on an unknown value")

// Frame is the file being rendered and how it was reached.
type Frame struct {
	File  string   // the file as shown in errors
	dir   string   // directory its $include paths resolve against
	real  string   // cleaned path, for cycle detection ("" for inline)
	Chain []Pos    // $include positions that led here, innermost first
	files []string // real paths of the files on the chain, outermost first
}

// Renderer holds the state of one render.
type Renderer struct {
	e      *Engine
	ctx    context.Context
	budget uint64
	nodes  int
	bytes  int
	files  map[string]*CompiledFile // read and parsed at most once per render
	steps  int
	// pending are the overlays reached in the stream, in order; they
	// apply once every document is rendered (reference §8).
	pending []Pending
	main    *CompiledFile // the template rendered; with files, what it wrote
}

func (e *Engine) newRenderer(ctx context.Context) *Renderer {
	if ctx == nil {
		ctx = context.Background()
	}
	return &Renderer{e: e, ctx: ctx, budget: e.opts.MaxCostPerRender}
}

// Options are the engine options the render runs under.
func (r *Renderer) Options() *Options { return &r.e.opts }

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
func sourceFrame(src Source) *Frame {
	fr := &Frame{File: src.Name, dir: src.BaseDir}
	if src.Name == "" {
		fr.File = InlineName
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
			Msg: "template is " + size + " MaxTemplateBytes (" + Itoa(e.opts.MaxTemplateBytes) + "); raise the engine option MaxTemplateBytes"}
	}
	if err != nil {
		return Source{}, &Error{Pos: Pos{File: path, Line: 1, Column: 1}, Msg: "cannot read template: " + loadErrText(err), Offset: -1}
	}
	return Source{Name: path, Text: text}, nil
}

// render renders the documents of text and, with origins, the position of
// the node that produced each.
func (e *Engine) render(ctx context.Context, fr *Frame, text []byte, vars map[string]Value, origins bool) ([]Value, []Pos, error) {
	if len(text) > e.opts.MaxTemplateBytes {
		return nil, nil, &Error{Pos: Pos{File: fr.File, Line: 1, Column: 1}, Offset: -1, Limit: "MaxTemplateBytes",
			Msg: "template is " + Itoa(len(text)) + " bytes, more than MaxTemplateBytes (" + Itoa(e.opts.MaxTemplateBytes) + "); raise the engine option MaxTemplateBytes"}
	}
	r := e.newRenderer(ctx)
	f := e.files.get(text)
	r.main = f
	if fr.real != "" {
		r.files = map[string]*CompiledFile{fr.real: f}
	}
	if f.err != nil {
		return nil, nil, r.compileErr(fr, f.err)
	}
	if err := r.checkDepth(f, fr); err != nil {
		return nil, nil, err
	}
	sc := rootScope(vars)
	docs := make([]Value, 0, len(f.Docs))
	var at []Pos
	for _, d := range f.Docs {
		next, pre, err := r.Preamble(d, sc, fr)
		if errors.Is(err, ErrUnknownShape) {
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
		docs, err = r.Multi(d, sc, fr, PosStream, docs)
		if errors.Is(err, ErrUnknownShape) {
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
	for _, p := range r.pending {
		var err error
		if out, err = p.Apply(r, out); err != nil {
			return nil, nil, err
		}
	}
	return out, kept, nil
}

// CountValue counts a value inserted whole (what an exact $eval gives,
// often a variable's value) with its real size. A value that holds
// another many times by reference (`${{ x }}` for an x that holds the
// value before it twice, level after level) is small in memory and may be
// exponential once written, so it is counted as written. The walk stops
// at the limits, so it costs at most what writing the value would.
func (r *Renderer) CountValue(fr *Frame, n *yaml.Node, path string, v Value) error {
	switch x := v.(type) {
	case *Map, []Value:
	case string:
		return r.Count(fr, n, path, 1, len(x))
	default:
		return r.Count(fr, n, path, 1, 8)
	}
	o := outputSize{maxNodes: r.e.opts.MaxNodes - r.nodes, maxBytes: r.e.opts.MaxOutputBytes - r.bytes}
	o.add(v)
	return r.Count(fr, n, path, o.nodes, o.bytes)
}

// Size counts the nodes and bytes of v as the emitters write it, up to
// the render's limits.
func (r *Renderer) Size(v Value) (nodes, bytes int) {
	o := outputSize{maxNodes: r.e.opts.MaxNodes, maxBytes: r.e.opts.MaxOutputBytes}
	o.add(v)
	return o.nodes, o.bytes
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

// Preamble runs document d when it is a preamble (reference §1): a root
// mapping with only $schema, $let and $assert, and at least $let. It gives
// no document; its bindings, $schema defaults included, are the scope of
// the later documents of the same file. pre reports a preamble; an $assert
// that cannot be decided yet gives errUnknownShape, since whether the
// later documents render is not known.
func (r *Renderer) Preamble(d Node, sc *Scope, fr *Frame) (next *Scope, pre bool, err error) {
	if !isPreamble(d) {
		return sc, false, nil
	}
	next, unknown, err := r.RunPreludes(d.(*MapNode), sc, fr) //nolint:forcetypeassert // isPreamble checked it
	if err != nil {
		return nil, true, err
	}
	if unknown {
		return nil, true, ErrUnknownShape
	}
	return next, true, nil
}

// isPreamble reports whether document root t is a preamble: a mapping with
// only $schema, $let and $assert, and at least $let.
func isPreamble(t Node) bool {
	m, ok := t.(*MapNode)
	return ok && len(m.Prods) == 0 && m.nRegular == 0 && m.binds
}

// docOrigin is the position of what produced the documents of root d:
// the key of its producer when that producer replaces the root ($for and
// $include give several documents), otherwise the root itself.
func docOrigin(d Node, fr *Frame) Pos {
	var n *yaml.Node
	switch t := d.(type) {
	case *MapNode:
		n = t.n
		if t.Replaces() {
			n = t.Prods[0].KeyNode()
		}
	case *SeqNode:
		n = t.n
	case *ConstNode:
		n = t.n
	}
	if n == nil {
		return Pos{File: fr.File, Line: 1, Column: 1}
	}
	return Pos{File: fr.File, Line: n.Line, Column: n.Column}
}

func appendOrigins(at []Pos, p Pos, n int) []Pos {
	for range n {
		at = append(at, p)
	}
	return at
}

// rootScope binds the caller's variables; each gets its CEL form on first
// use (scope.lookup).
func rootScope(vars map[string]Value) *Scope {
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	sc := &Scope{binds: make([]scopeVar, len(names))}
	for i, k := range names {
		sc.binds[i].name = k
		sc.SetValue(i, vars[k])
	}
	return sc
}

// Eval evaluates one CEL expression with variables.
func (e *Engine) Eval(ctx context.Context, expr string, vars map[string]Value) (Value, error) {
	r := e.newRenderer(ctx)
	sc := rootScope(vars)
	fr := &Frame{File: InlineName, dir: "."}
	x := NewExprRef(ExprRef{Text: expr, Shown: expr, Node: &yaml.Node{Line: 1, Column: 1}, Bare: "eval()"})
	v, err := r.EvalExpr(x, sc, fr)
	if err != nil {
		return nil, err
	}
	out, present, cerr := celenv.FromCELOutput(v)
	if cerr != nil {
		return nil, r.ResultErr(fr, x, cerr)
	}
	if !present {
		return nil, nil
	}
	return out, nil
}

// Value renders t in value position.
func (r *Renderer) Value(t Node, sc *Scope, fr *Frame) (Value, bool, error) {
	switch t := t.(type) {
	case *ConstNode:
		if err := r.Count(fr, t.n, t.path, t.nodes, t.bytes); err != nil {
			return nil, false, err
		}
		return t.Value, true, nil
	case *SeqNode:
		out := make([]Value, 0, len(t.elems))
		for _, el := range t.elems {
			var err error
			out, err = r.Multi(el, sc, fr, PosItem, out)
			if errors.Is(err, ErrUnknownShape) {
				return Unknown{}, true, nil
			}
			if err != nil {
				return nil, false, err
			}
		}
		if err := r.Count(fr, t.n, t.path, 1, 2); err != nil {
			return nil, false, err
		}
		return out, true, nil
	case *MapNode:
		return r.mapValue(t, sc, fr)
	case SelfRenderer:
		return t.Value(r, sc, fr)
	}
	return nil, false, nil
}

// Multi renders t in item or stream position, appending what it gives.
func (r *Renderer) Multi(t Node, sc *Scope, fr *Frame, pos Position, dst []Value) ([]Value, error) {
	switch t := t.(type) {
	case *MapNode:
		return r.mapMulti(t, sc, fr, pos, dst)
	case SelfRenderer:
		return t.Multi(r, sc, fr, pos, dst)
	}
	v, ok, err := r.Value(t, sc, fr)
	return AppendIf(dst, v, ok, err)
}

// SelfRenderer is a compiled node that renders itself: what a package
// beside the walker compiles (an overlay document, an edit list of an
// overlay's patch).
type SelfRenderer interface {
	// Value renders in value position: a value, or nothing (false).
	Value(r *Renderer, sc *Scope, fr *Frame) (Value, bool, error)
	// Multi renders in item or stream position, appending to dst.
	Multi(r *Renderer, sc *Scope, fr *Frame, pos Position, dst []Value) ([]Value, error)
}

// Pending is an overlay reached in the stream: once every document is
// rendered, Apply edits them (reference §8).
type Pending interface {
	Apply(r *Renderer, docs []Value) ([]Value, error)
}

// AddPending queues p; the pending overlays apply in stream order.
func (r *Renderer) AddPending(p Pending) { r.pending = append(r.pending, p) }

// AppendIf adds what a value-position render gave to dst: the value, or
// nothing.
func AppendIf(dst []Value, v Value, ok bool, err error) ([]Value, error) {
	if err == nil && ok {
		dst = append(dst, v)
	}
	return dst, err
}

// Splice renders a body written as a YAML sequence in item or stream
// position: its items are added in place.
func (r *Renderer) Splice(body Node, key *yaml.Node, path string, sc *Scope, fr *Frame, pos Position, dst []Value) ([]Value, error) {
	if pos == PosStream {
		return dst, r.ErrAt(fr, key, path, "a "+key.Value+" body written as a sequence cannot stand at a document root: documents are not lists; write a mapping per document, or put the sequence under a key")
	}
	switch b := body.(type) {
	case *ConstNode:
		items, _ := b.Value.([]Value)
		if err := r.Count(fr, key, path, b.nodes, b.bytes); err != nil {
			return dst, err
		}
		return append(dst, items...), nil
	case *SeqNode:
		for _, el := range b.elems {
			var err error
			if dst, err = r.Multi(el, sc, fr, PosItem, dst); err != nil {
				return dst, err
			}
		}
		return dst, nil
	}
	return r.Multi(body, sc, fr, pos, dst)
}

// Count charges output nodes and bytes against the render's limits.
func (r *Renderer) Count(fr *Frame, n *yaml.Node, path string, nodes, bytes int) error {
	r.nodes += nodes
	r.bytes += bytes
	if r.nodes > r.e.opts.MaxNodes {
		return r.LimitErr(fr, n, path, "MaxNodes", "the output has more than MaxNodes ("+Itoa(r.e.opts.MaxNodes)+") nodes")
	}
	if r.bytes > r.e.opts.MaxOutputBytes {
		return r.LimitErr(fr, n, path, "MaxOutputBytes", "the output is larger than MaxOutputBytes ("+Itoa(r.e.opts.MaxOutputBytes)+" bytes)")
	}
	return nil
}

// checkDepth enforces MaxDepth on a compiled file.
func (r *Renderer) checkDepth(f *CompiledFile, fr *Frame) error {
	limit := r.e.opts.MaxDepth
	if f.depth > limit {
		return r.LimitErr(fr, f.deepest, "", "MaxDepth", "the template nests deeper than MaxDepth ("+Itoa(limit)+" levels of mappings and sequences)")
	}
	if n := len(f.preambles); n > 0 && f.depth+n > limit {
		// Each preamble nests the later documents one level deeper, and a
		// lookup walks every level: unbounded, they would make a render
		// quadratic in the file's size.
		at := f.preambles[min(n-1, limit-f.depth)]
		return r.LimitErr(fr, at, "", "MaxDepth", "the template has "+Itoa(n)+" preambles, each nesting the documents after it one level deeper, which with "+
			Itoa(f.depth)+" levels of mappings and sequences is deeper than MaxDepth ("+Itoa(limit)+"); put their $let entries into fewer preambles")
	}
	return nil
}

// Tick is called once per $for iteration: it counts iterations against
// MaxIterations and notices cancellation.
func (r *Renderer) Tick(fr *Frame, n *yaml.Node, path string) error {
	if r.steps+1 > r.e.opts.MaxIterations {
		return r.LimitErr(fr, n, path, "MaxIterations", "the render runs more than MaxIterations ("+Itoa(r.e.opts.MaxIterations)+") $for iterations")
	}
	return r.pulse(fr, n, path)
}

// Step is called once for each target an overlay or a list edit is tried
// on: each costs one unit of the render's CEL budget, even when its
// condition is a YAML bool, so that many overlays on many documents stop at
// MaxCostPerRender instead of running for hours.
func (r *Renderer) Step(fr *Frame, n *yaml.Node, path string) error {
	if r.budget == 0 {
		return r.LimitErr(fr, n, path, "MaxCostPerRender", "the render's CEL cost budget is used up (MaxCostPerRender), each overlay tried on each document costing one")
	}
	r.budget--
	return r.pulse(fr, n, path)
}

// pulse is called once per step of any loop (a $for iteration, an overlay
// or list edit tried on one target): it notices cancellation.
func (r *Renderer) pulse(fr *Frame, n *yaml.Node, path string) error {
	r.steps++
	if r.steps&63 == 0 {
		if err := r.ctx.Err(); err != nil {
			return r.ErrAt(fr, n, path, "rendering cancelled: "+err.Error())
		}
	}
	return nil
}

func (r *Renderer) LimitErr(fr *Frame, n *yaml.Node, path, limit, msg string) error {
	e := r.ErrAt(fr, n, path, msg+"; raise the engine option "+limit+" if this is intended")
	e.Limit = limit
	return e
}

// ErrAt builds an *Error at node n of the file in fr.
func (r *Renderer) ErrAt(fr *Frame, n *yaml.Node, path, msg string) *Error {
	p := Pos{File: fr.File, Line: 1, Column: 1}
	if n != nil && n.Line > 0 {
		p.Line, p.Column = n.Line, n.Column
	}
	return &Error{Pos: p, Path: path, Msg: msg, Offset: -1, Chain: fr.Chain}
}

// ResultErr is the error for an expression's result as a whole, one that
// cannot be converted or written out: the caret goes under the
// expression's first character, past the spaces after "${{".
func (r *Renderer) ResultErr(fr *Frame, x *ExprRef, err error) error {
	off := x.Off + len(x.Text) - len(strings.TrimLeft(x.Text, " \t\r\n"))
	return &Error{Pos: Pos{File: fr.File, Line: x.Node.Line, Column: x.Node.Column}, Path: x.Path,
		Msg: err.Error(), Expr: x.Shown, Offset: off, Chain: fr.Chain}
}

func (r *Renderer) compileErr(fr *Frame, c *CompileError) error {
	p := Pos{File: fr.File, Line: c.line, Column: c.column}
	if c.Node != nil {
		p.Line, p.Column = c.Node.Line, c.Node.Column
	}
	if p.Line == 0 {
		p.Line, p.Column = 1, 1
	}
	return &Error{Pos: p, Path: c.Path, Msg: c.Msg, Expr: c.Expr, Offset: c.Offset, Chain: fr.Chain}
}

// EvalExpr compiles (through the cache) and evaluates one expression.
func (r *Renderer) EvalExpr(x *ExprRef, sc *Scope, fr *Frame) (ref.Val, error) {
	if x.Fast != nil {
		if v, ok := r.fastPath(x.Fast, sc); ok {
			return v, nil
		}
	}
	p, xerr := r.e.progs.Compile(x.Text, sc.has)
	if xerr == nil {
		var v ref.Val
		v, xerr = p.Eval(r.ctx, sc, &r.budget)
		if xerr == nil {
			return v, nil
		}
	}
	off := -1
	if xerr.Offset >= 0 {
		off = x.Off + xerr.Offset
	}
	p0 := Pos{File: fr.File, Line: x.Node.Line, Column: x.Node.Column}
	msg, hinted := explain(xerr.Msg, sc)
	if !hinted {
		// A close name is the likelier mistake; one hint at a time.
		msg += hint.Bare(x.Bare, x.Text, xerr.Msg)
	}
	return nil, &Error{Pos: p0, Path: x.Path, Msg: msg, Expr: x.Shown, Offset: off, Chain: fr.Chain, Limit: xerr.Limit}
}

// explain rewrites two CEL messages users meet often into plain words:
// a name that is not in scope (with the closest name that is, or the CEL
// spelling of a word from another language), and a CEL reserved word used
// as a name. Names are template text or variable names, never values.
// hinted reports that the message already says what was probably meant.
func explain(msg string, sc *Scope) (out string, hinted bool) {
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
func closestName(name string, sc *Scope) string {
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
func (r *Renderer) fastPath(path []string, sc *Scope) (ref.Val, bool) {
	if len(path) > 1 {
		v, ok := r.FastValue(path, sc)
		if !ok {
			return nil, false
		}
		return celenv.ToCEL(v), true
	}
	if r.budget < 1 {
		return nil, false
	}
	v, ok := sc.Lookup(path[0])
	if !ok || v == nil || types.IsError(v) {
		return nil, false
	}
	r.budget--
	return v, true
}

// FastValue reads a variable bound from an engine value, or a field chain
// whose root is such a value or a map from the template or the variables:
// it returns the engine value stored there, exactly what CEL would give
// back after converting it both ways (celenv.FromCEL(celenv.ToCEL(v)) is v for every kind
// scope.setValue keeps).
func (r *Renderer) FastValue(path []string, sc *Scope) (Value, bool) {
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

// EvalBool evaluates a condition. unknown reports an undecidable one.
func (r *Renderer) EvalBool(x *ExprRef, sc *Scope, fr *Frame, what string) (val, unknown bool, err error) {
	if x.eq != nil && r.budget > 0 {
		// A string compared with a literal needs no CEL program. Anything
		// else found there (a number, a missing key) goes through CEL,
		// which gives the exact result or error.
		if v, ok := r.FastValue(x.eq.path, sc); ok {
			switch v := v.(type) {
			case string:
				r.budget--
				return v == x.eq.lit, false, nil
			case Unknown:
				return false, true, nil
			}
		}
	}
	v, err := r.EvalExpr(x, sc, fr)
	if err != nil {
		return false, false, err
	}
	switch b := v.(type) {
	case types.Bool:
		return bool(b), false, nil
	case *types.Unknown:
		return false, true, nil
	}
	return false, false, &Error{Pos: Pos{File: fr.File, Line: x.Node.Line, Column: x.Node.Column}, Path: x.Path,
		Msg: what + " must be a bool, got " + celenv.TypeName(v) + "; " + hint.NoTruthiness, Expr: x.Shown, Offset: -1, Chain: fr.Chain}
}

// ValueKind names the kind of an engine value, for messages. It never
// shows the value itself.
func ValueKind(v Value) string {
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
	case merge.Edit: // an edit list of an overlay's patch
		return "list edits"
	}
	return "a value"
}

func Itoa(i int) string     { return strconv.Itoa(i) }
func Quote(s string) string { return strconv.Quote(s) }
