package walk

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/loader"
)

// Options configure an Engine. Zero fields take the defaults shown in
// DefaultOptions.
type Options struct {
	// Loader reads the files that $include and RenderFile name. Default:
	// OSLoader{} (the process's file system, relative paths against the
	// working directory).
	Loader loader.Loader
	// MaxCostPerExpression is the CEL cost limit for one evaluation of one
	// expression, as Kubernetes sets per validation rule.
	MaxCostPerExpression uint64
	// MaxCostPerRender is the total CEL cost budget for one render.
	MaxCostPerRender uint64
	// MaxIncludeDepth is how deep $include may nest.
	MaxIncludeDepth int
	// MaxNodes caps the number of output nodes (scalars, mappings and
	// sequences) one render may produce.
	MaxNodes int
	// MaxDepth caps how deeply a template's YAML may nest (mappings and
	// sequences inside each other).
	MaxDepth int
	// MaxIterations caps the total number of $for iterations in one
	// render, so nested loops whose bodies give nothing still end fast.
	MaxIterations int
	// MaxOutputBytes caps the size of the encoded output (checked by the
	// encoders) and of strings built while rendering.
	MaxOutputBytes int
	// MaxTemplateBytes caps the size of one template file or source.
	MaxTemplateBytes int
	// Namespace, when not "", is a transform with only namespace (reference
	// §10), applied to every render after the template's own transforms:
	// the command line's --namespace/-n.
	Namespace string
}

// DefaultOptions returns the limits the provider uses.
func DefaultOptions() Options {
	return Options{
		Loader:               loader.OSLoader{},
		MaxCostPerExpression: 1_000_000,
		MaxCostPerRender:     100_000_000,
		MaxIncludeDepth:      64,
		MaxNodes:             1_000_000,
		MaxIterations:        2_000_000,
		MaxDepth:             500,
		MaxOutputBytes:       64 << 20,
		MaxTemplateBytes:     16 << 20,
	}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.Loader == nil {
		o.Loader = d.Loader
	}
	if o.MaxCostPerExpression == 0 {
		o.MaxCostPerExpression = d.MaxCostPerExpression
	}
	if o.MaxCostPerRender == 0 {
		o.MaxCostPerRender = d.MaxCostPerRender
	}
	if o.MaxIncludeDepth == 0 {
		o.MaxIncludeDepth = d.MaxIncludeDepth
	}
	if o.MaxNodes == 0 {
		o.MaxNodes = d.MaxNodes
	}
	if o.MaxDepth == 0 {
		o.MaxDepth = d.MaxDepth
	}
	if o.MaxIterations == 0 {
		o.MaxIterations = d.MaxIterations
	}
	if o.MaxOutputBytes == 0 {
		o.MaxOutputBytes = d.MaxOutputBytes
	}
	if o.MaxTemplateBytes == 0 {
		o.MaxTemplateBytes = d.MaxTemplateBytes
	}
	return o
}

// Engine renders templates. It is safe for concurrent use; compiled CEL
// programs are cached and shared by every render.
type Engine struct {
	opts  Options
	progs *celenv.Cache
	files *fileCache
}

// Options are the engine's options, defaults filled in.
func (e *Engine) Options() *Options { return &e.opts }

// Programs is the engine's cache of compiled CEL programs.
func (e *Engine) Programs() *celenv.Cache { return e.progs }

// New returns an Engine with the given options.
func New(opts Options) *Engine {
	opts = opts.withDefaults()
	return &Engine{opts: opts, progs: celenv.NewCache(opts.MaxCostPerExpression), files: &fileCache{}}
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
