package walk

import (
	"context"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/options"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// Engine renders templates. It is safe for concurrent use; compiled CEL
// programs are cached and shared by every render.
type Engine struct {
	opts      options.Options
	table     *tree.Table
	namespace NamespaceFunc
	progs     *celenv.Cache
	files     *fileCache
}

// NamespaceFunc applies the engine's Namespace option to the documents of
// a render once the transforms have (fr is the file rendered; reference
// §10).
type NamespaceFunc func(r tree.Renderer, docs []value.Value, fr *diag.Frame, ns string) ([]value.Value, error)

// Options are the engine's options, defaults filled in.
func (e *Engine) Options() *options.Options { return &e.opts }

// Programs is the engine's cache of compiled CEL programs.
func (e *Engine) Programs() *celenv.Cache { return e.progs }

// Table is the directive table the engine compiles templates with.
func (e *Engine) Table() *tree.Table { return e.table }

// New returns an Engine with the given options that compiles with table
// and applies the Namespace option with namespace. Both are required:
// the engine's facade assembles them (internal/engine/assemble.go).
func New(opts options.Options, table *tree.Table, namespace NamespaceFunc) *Engine {
	if table == nil || namespace == nil {
		panic("walk.New: no directive table or no namespace step")
	}
	opts = opts.WithDefaults()
	return &Engine{opts: opts, table: table, namespace: namespace,
		progs: celenv.NewCache(opts.MaxCostPerExpression), files: newFileCache(table)}
}

// Source is a template to render.
type Source struct {
	// Name is the template's path as the caller gave it. It is used in
	// error positions and, for a file, to resolve $include. Empty means an
	// inline template, shown as "<inline>".
	Name string
	// Text is the template. For a file, RenderFile fills it.
	Text []byte
	// BaseDir is the directory that $include in an inline template resolves
	// against. Empty means the working directory. Ignored when Name is set:
	// a file's includes resolve against the file's own directory.
	BaseDir string
}

// InlineName is the file name used in positions of inline templates.
const InlineName = "<inline>"

// CachedFiles is how many compiled texts the engine keeps, for the tests
// that check a text is compiled once.
func (e *Engine) CachedFiles() int {
	return e.files.Len()
}

// CompileTimeError is the error a render of src reports before it
// evaluates any expression (a YAML error, a directive error of the
// compiler, the template's size or depth), or nil when a render gets as
// far as evaluating: for the test that holds check to what render finds.
func (e *Engine) CompileTimeError(ctx context.Context, src Source) error {
	fr := SourceFrame(src)
	if len(src.Text) > e.opts.MaxTemplateBytes {
		return &diag.Error{Pos: diag.Pos{File: fr.File, Line: 1, Column: 1}, Msg: "template too large"}
	}
	r := e.newRenderer(ctx)
	f := e.table.CompileFile(src.Text)
	if f.Err != nil {
		return r.compileErr(fr, f.Err)
	}
	return r.checkDepth(f, fr)
}
