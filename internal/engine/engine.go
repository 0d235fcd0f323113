package engine

import (
	"context"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/check"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/loader"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/options"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
)

// The facade: what the provider and the CLI call. The work is done by
// package tree (parse, compile), package walk (walk the tree) and the
// directives listed in the table that assemble.go builds; see
// ARCHITECTURE.md at the repository root.

type (
	// Options configure an Engine. Zero fields take the defaults shown in
	// DefaultOptions. See options.Options.
	Options = options.Options
	// Source is a template to render. See walk.Source.
	Source = walk.Source
	// Document is a rendered document and where the template produced it.
	Document = walk.Document
	// Error is a render error that points at a file:line:column.
	Error = diag.Error
	// Pos is a position in a template.
	Pos = diag.Pos
	// Problem is what Check finds: an error, or a warning.
	Problem = check.Problem
	// Loader reads the files that $include and RenderFile name.
	Loader = loader.Loader
	// OSLoader reads files from the process's file system.
	OSLoader = loader.OSLoader
	// FSLoader reads files from an fs.FS.
	FSLoader = loader.FSLoader
)

// InlineName is the file name used in positions of inline templates.
const InlineName = walk.InlineName

// ErrOutsideRoots is the error of a file outside the allowed include roots.
var ErrOutsideRoots = loader.ErrOutsideRoots

// DefaultOptions returns the limits the provider uses.
func DefaultOptions() Options { return options.Default() }

// Engine renders templates. It is safe for concurrent use; compiled CEL
// programs and compiled templates are cached and shared by every render.
type Engine struct {
	opts Options // as given to New
	w    *walk.Engine
}

// New returns an Engine with the given options.
func New(opts Options) *Engine {
	return &Engine{opts: opts, w: assemble(opts)}
}

// Render renders a template with variables and returns its documents.
// Documents that render to nothing or null are dropped. Errors are *Error.
func (e *Engine) Render(ctx context.Context, src Source, vars map[string]value.Value) ([]value.Value, error) {
	return e.w.Render(ctx, src, vars)
}

// RenderDocuments is Render that also says where each document came from,
// so that an error about a document (two with the same manifest ID) can
// point into the template. When the number of documents is not known
// yet, it returns the one document UnknownStream.
func (e *Engine) RenderDocuments(ctx context.Context, src Source, vars map[string]value.Value) ([]Document, error) {
	return e.w.RenderDocuments(ctx, src, vars)
}

// RenderOver is RenderDocuments with upstream documents ahead of the
// template's own: its overlays edit them and its transforms apply to
// them, as to the documents of a stream-position $include at its top
// (reference §8). `celyaml post-render` gives it the stream Helm renders.
func (e *Engine) RenderOver(ctx context.Context, src Source, vars map[string]value.Value, upstream []Document) ([]Document, error) {
	return e.w.RenderOver(ctx, src, vars, upstream)
}

// RenderFile reads the template at path through the Loader and renders it.
// Its $include directives resolve against the file's directory.
func (e *Engine) RenderFile(ctx context.Context, path string, vars map[string]value.Value) ([]value.Value, error) {
	return e.w.RenderFile(ctx, path, vars)
}

// LoadFile reads the template at path through the Loader, as the Source
// RenderFile renders: a regular file of at most MaxTemplateBytes, the read
// stopping when ctx is cancelled.
func (e *Engine) LoadFile(ctx context.Context, path string) (Source, error) {
	return e.w.LoadFile(ctx, path)
}

// Eval evaluates one CEL expression with variables.
func (e *Engine) Eval(ctx context.Context, expr string, vars map[string]value.Value) (value.Value, error) {
	return e.w.Eval(ctx, expr, vars)
}

// Check compiles a template without rendering it and reports every
// problem it finds; declared says which root variables exist. See
// check.Check.
func (e *Engine) Check(ctx context.Context, src Source, declared func(string) bool) (problems []Problem, texts [][]byte) {
	return check.Check(ctx, e.w, src, declared)
}

// CheckRender is Check followed, when Check finds no error, by a render
// with vars (or, when vars is nil and every input has a default, with
// none); after may find more in the documents. See check.Render.
func (e *Engine) CheckRender(ctx context.Context, src Source, vars map[string]value.Value, after func([]Document) error) (problems []Problem, texts [][]byte) {
	return check.Render(ctx, e.w, src, vars, after)
}

// LiteralIncludes gives the files that the template in src includes by a
// literal path, resolved and cleaned. See check.LiteralIncludes.
func (e *Engine) LiteralIncludes(src Source) []string { return check.LiteralIncludes(e.w.Table(), src) }

// InputsWithoutDefault gives the inputs the template in src declares with
// a $schema and no default that declared does not say are given. See
// check.InputsWithoutDefault.
func (e *Engine) InputsWithoutDefault(src Source, declared func(string) bool) []string {
	return check.InputsWithoutDefault(e.w.Table(), src, declared)
}

// What an editor needs of a template's names (internal/engine/check,
// symbols.go): the names in scope where, where each is bound, what
// $schema says of a variable, and the literal $include paths.
type (
	Symbols        = check.Symbols
	ScopeAt        = check.ScopeAt
	Binding        = check.Binding
	SchemaInfo     = check.SchemaInfo
	SchemaProperty = check.SchemaProperty
	IncludeRef     = check.IncludeRef
)

// Symbols reads the names of src; it compiles the template and
// evaluates nothing. A YAML syntax error ends the reading: the symbols of the
// documents before it are returned with the error.
func (e *Engine) Symbols(src Source) (*Symbols, error) {
	return check.ReadSymbols(e.w.Table(), e.opts, src)
}
