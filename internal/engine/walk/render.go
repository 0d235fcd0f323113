package walk

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/options"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/loader"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/fileread"
	"go.yaml.in/yaml/v3"
)

// Renderer holds the state of one render. The directives reach it as a
// tree.Renderer.
type Renderer struct {
	e      *Engine
	ctx    context.Context
	budget uint64
	nodes  int
	bytes  int
	files  map[string]*tree.CompiledFile // read and parsed at most once per render
	steps  int
	// pending are the overlays reached in the stream, in order; they
	// apply once every document is rendered (reference §8). late are the
	// transforms, which apply after every overlay (reference §10).
	pending, late []tree.Pending
	kept          []diag.Pos         // the origins of the documents, while overlays remove some
	main          *tree.CompiledFile // the template rendered; with files, what it wrote

	// texts are the files $schema includes, read once per render.
	texts map[string][]byte
}

var _ tree.Renderer = (*Renderer)(nil)

func (e *Engine) newRenderer(ctx context.Context) *Renderer {
	if ctx == nil {
		ctx = context.Background()
	}
	return &Renderer{e: e, ctx: ctx, budget: e.opts.MaxCostPerRender}
}

// NewRenderer is a render's state outside a render: for check, which
// reads what $schema includes as a render does.
func (e *Engine) NewRenderer(ctx context.Context) *Renderer { return e.newRenderer(ctx) }

// Context is the render's context: a read through the Loader stops when
// it is cancelled.
func (r *Renderer) Context() context.Context { return r.ctx }

// Options are the engine options the render runs under.
func (r *Renderer) Options() *options.Options { return &r.e.opts }

// Render renders a template with variables and returns its documents.
// Documents that render to nothing or null are dropped. Errors are *diag.Error.
func (e *Engine) Render(ctx context.Context, src Source, vars map[string]value.Value) ([]value.Value, error) {
	docs, _, err := e.render(ctx, SourceFrame(src), src.Text, vars, nil, false)
	return docs, err
}

// Document is a rendered document and where the template produced it.
type Document struct {
	Value value.Value
	// Origin is the node of the template that produced the document: the
	// root of a document, or the key of the directive that produced
	// several ($for, $include, $chart) at a document root.
	Origin diag.Pos
	// Unknown is, for the unknown stream only, the path of the value not
	// known yet that decides it when the directive names one
	// ("$values.image.tag" for a $chart, reference §11), or "".
	Unknown string
}

// RenderDocuments is Render that also says where each document came from,
// so that an error about a document (two with the same manifest ID) can
// point into the template. When the number of documents is not known
// yet, it returns the one document UnknownStream, whose origin is the
// root of the document whose $if or $for decides it on a value not known
// yet (zero when an overlay or a transform decides it).
func (e *Engine) RenderDocuments(ctx context.Context, src Source, vars map[string]value.Value) ([]Document, error) {
	return e.RenderOver(ctx, src, vars, nil)
}

// RenderOver is RenderDocuments with upstream documents ahead of the
// template's own, as if a stream-position $include at the top of the
// template had produced them (reference §8): the template's overlays edit
// them, its transforms apply to them, and its other documents follow
// them. `celyaml post-render` feeds it the stream Helm renders. An
// overlay's error names an upstream document by its place and manifest
// ID, as any other's; each keeps its Origin. A nil upstream document is
// dropped.
func (e *Engine) RenderOver(ctx context.Context, src Source, vars map[string]value.Value, upstream []Document) ([]Document, error) {
	docs, origins, err := e.render(ctx, SourceFrame(src), src.Text, vars, upstream, true)
	var us *unknownStreamAt
	if errors.As(err, &us) {
		return []Document{{Value: value.UnknownStream, Origin: us.origin, Unknown: us.path}}, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]Document, len(docs))
	for i, d := range docs {
		out[i] = Document{Value: d}
		if i < len(origins) { // the unknown stream's: the document that decides it, if one does
			out[i].Origin = origins[i]
		}
	}
	return out, nil
}

// SourceFrame is the frame of a source's own file.
func SourceFrame(src Source) *diag.Frame {
	fr := &diag.Frame{File: src.Name, Dir: src.BaseDir}
	if src.Name == "" {
		fr.File = InlineName
	} else {
		fr.Dir = filepath.Dir(src.Name)
		fr.Real = filepath.Clean(src.Name)
		fr.Files = []string{fr.Real}
	}
	if fr.Dir == "" {
		fr.Dir = "."
	}
	return fr
}

// RenderFile reads the template at path through the Loader and renders it.
// Its $include directives resolve against the file's directory.
func (e *Engine) RenderFile(ctx context.Context, path string, vars map[string]value.Value) ([]value.Value, error) {
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
		return Source{}, &diag.Error{Pos: diag.Pos{File: path, Line: 1, Column: 1}, Offset: -1, Limit: "MaxTemplateBytes",
			Msg: "template is " + size + " MaxTemplateBytes (" + tree.Itoa(e.opts.MaxTemplateBytes) + ")" + hint.RaiseLimit("MaxTemplateBytes")}
	}
	if err != nil {
		return Source{}, &diag.Error{Pos: diag.Pos{File: path, Line: 1, Column: 1}, Msg: "cannot read template: " + loader.ErrText(err), Offset: -1}
	}
	return Source{Name: path, Text: text}, nil
}

// render renders the documents of text, after the upstream ones, and,
// with origins, the position of the node that produced each.
func (e *Engine) render(ctx context.Context, fr *diag.Frame, text []byte, vars map[string]value.Value, upstream []Document, origins bool) ([]value.Value, []diag.Pos, error) {
	if len(text) > e.opts.MaxTemplateBytes {
		return nil, nil, &diag.Error{Pos: diag.Pos{File: fr.File, Line: 1, Column: 1}, Offset: -1, Limit: "MaxTemplateBytes",
			Msg: "template is " + tree.Itoa(len(text)) + " bytes, more than MaxTemplateBytes (" + tree.Itoa(e.opts.MaxTemplateBytes) + ")" + hint.RaiseLimit("MaxTemplateBytes")}
	}
	r := e.newRenderer(ctx)
	f := e.files.Get(text)
	r.main = f
	if fr.Real != "" {
		r.files = map[string]*tree.CompiledFile{fr.Real: f}
	}
	if f.Err != nil {
		return nil, nil, r.compileErr(fr, f.Err)
	}
	if err := r.checkDepth(f, fr); err != nil {
		return nil, nil, err
	}
	sc := scope.Root(vars)
	docs := make([]value.Value, 0, len(upstream)+len(f.Docs))
	var at []diag.Pos
	for _, d := range upstream {
		docs = append(docs, d.Value)
		if origins {
			at = append(at, d.Origin)
		}
	}
	// unknownStream is the result when a document decides the number of
	// documents on a value not known yet: with origins, it says where
	// (the document's root directive, for the data source's warning).
	unknownStream := func(d tree.Node, err error) ([]value.Value, []diag.Pos, error) {
		if origins {
			var ue *tree.UnknownShapeError
			if errors.As(err, &ue) {
				return nil, nil, &unknownStreamAt{origin: docOrigin(d, fr), path: ue.Path}
			}
			return []value.Value{value.UnknownStream}, []diag.Pos{docOrigin(d, fr)}, nil
		}
		return []value.Value{value.UnknownStream}, nil, nil
	}
	for _, d := range f.Docs {
		next, pre, err := r.Preamble(d, sc, fr)
		if errors.Is(err, tree.ErrUnknownShape) {
			return unknownStream(d, err)
		}
		if err != nil {
			return nil, nil, err
		}
		if pre {
			sc = next
			continue
		}
		n := len(docs)
		docs, err = r.Multi(d, sc, fr, tree.PosStream, docs)
		if errors.Is(err, tree.ErrUnknownShape) {
			return unknownStream(d, err)
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
	if len(r.pending) > 0 {
		r.kept = kept
		for _, p := range r.pending {
			var err error
			if out, err = p.Apply(r, out); errors.Is(err, tree.ErrUnknownShape) {
				return []value.Value{value.UnknownStream}, nil, nil
			} else if err != nil {
				return nil, nil, err
			}
		}
		kept = r.kept
	}
	if len(r.late) > 0 || r.e.opts.Namespace != "" {
		for _, p := range r.late {
			var err error
			if out, err = p.Apply(r, out); err != nil {
				return nil, nil, err
			}
		}
		if ns := r.e.opts.Namespace; ns != "" {
			var err error
			if out, err = r.e.namespace(r, out, fr, ns); err != nil {
				return nil, nil, err
			}
		}
	}
	return out, kept, nil
}

// DropRemoved drops the documents an overlay removed (left nil), with
// their origins.
func (r *Renderer) DropRemoved(docs []value.Value) []value.Value {
	out := docs[:0]
	kept := r.kept[:0]
	for i, d := range docs {
		if d != nil {
			out = append(out, d)
			if len(r.kept) == len(docs) {
				kept = append(kept, r.kept[i])
			}
		}
	}
	if len(r.kept) == len(docs) {
		r.kept = kept
	}
	return out
}

// Preamble runs document d when it is a preamble (reference §1): a root
// mapping with only $schema, $let and $assert, and at least $let. It gives
// no document; its bindings, $schema defaults included, are the scope of
// the later documents of the same file. pre reports a preamble; an $assert
// that cannot be decided yet gives errUnknownShape, since whether the
// later documents render is not known.
func (r *Renderer) Preamble(d tree.Node, sc *scope.Scope, fr *diag.Frame) (next *scope.Scope, pre bool, err error) {
	if !tree.IsPreamble(d) {
		return sc, false, nil
	}
	next, unknown, err := r.RunPreludes(d.(*tree.MapNode), sc, fr) //nolint:forcetypeassert // IsPreamble checked it
	if err != nil {
		return nil, true, err
	}
	if unknown {
		return nil, true, tree.ErrUnknownShape
	}
	return next, true, nil
}

// unknownStreamAt carries the unknown stream's origin and the path of the
// value that decides it from render to RenderDocuments.
type unknownStreamAt struct {
	origin diag.Pos
	path   string
}

func (u *unknownStreamAt) Error() string { return "unknown stream at " + u.path }

// docOrigin is the position of what produced the documents of root d:
// the key of its producer when that producer replaces the root ($for and
// $include give several documents), otherwise the root itself.
func docOrigin(d tree.Node, fr *diag.Frame) diag.Pos {
	var n *yaml.Node
	switch t := d.(type) {
	case *tree.MapNode:
		n = t.Node
		if t.Replaces() {
			n = t.Prods[0].KeyNode()
		}
	case *tree.SeqNode:
		n = t.Node
	case *tree.ConstNode:
		n = t.Node
	case interface{ KeyNode() *yaml.Node }: // a document directive that gives documents ($chart)
		n = t.KeyNode()
	}
	if n == nil {
		return diag.Pos{File: fr.File, Line: 1, Column: 1}
	}
	return diag.Pos{File: fr.File, Line: n.Line, Column: n.Column}
}

func appendOrigins(at []diag.Pos, p diag.Pos, n int) []diag.Pos {
	for range n {
		at = append(at, p)
	}
	return at
}
