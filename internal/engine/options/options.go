// Package options holds what an engine is configured with: the Loader
// that reads template files, the limits of reference §7, the Namespace
// option and the scopes the transforms read (reference §10), whether
// errors hide variables' keys (reference §6), and how a remote chart is
// fetched (reference §11). The facade re-exports it as engine.Options.
package options

import (
	"context"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/chart"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/loader"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/transform"
)

// Options configure an Engine. Zero fields take the defaults shown in
// Default.
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
	// KeepNamespace are the objects the Namespace option leaves where
	// they are (reference §10 keepNamespace): the command line's
	// --keep-namespace.
	KeepNamespace []transform.Keep
	// Scopes tells transforms the scope of custom kinds whose
	// CustomResourceDefinitions were given beside the template (the
	// command line's --schemas), keyed "group/Kind", true for namespaced
	// (reference §10).
	Scopes map[string]bool
	// HideKeys leaves the keys of variables out of errors (reference §6):
	// a $schema failure writes a key its schema does not name as […].
	// The data source sets it with sensitive = true; by default keys,
	// the variables' structure and never their values, are named.
	HideKeys bool
	// FetchChart gives the local path (a chart folder or .tgz) of a
	// remote chart that a $chart names (reference §11), downloading it
	// when it is not cached; the chart is then read from the file system
	// (not through Loader, whose roots need not hold the cache), within
	// MaxTemplateBytes. Nil: a remote chart is an error.
	FetchChart func(ctx context.Context, r chart.Remote) (string, error)
}

// Default returns the limits the provider uses. Those that grow
// with the output are sized for a platform of real bundles: sixty copies
// of argo-cd's install.yaml in one stream (about 4,000,000 nodes and
// 135 MB) render, with room to spare (internal/kustomize's
// TestPlatform_sixtyArgoCDCopiesFitTheDefaultLimits).
func Default() Options {
	return Options{
		Loader:               loader.OSLoader{},
		MaxCostPerExpression: 1_000_000,
		MaxCostPerRender:     100_000_000,
		MaxIncludeDepth:      64,
		MaxNodes:             10_000_000,
		MaxIterations:        2_000_000,
		MaxDepth:             500,
		MaxOutputBytes:       256 << 20,
		MaxTemplateBytes:     256 << 20,
	}
}

// WithDefaults gives o with every zero field set to Default's.
func (o Options) WithDefaults() Options {
	d := Default()
	if o.Loader == nil {
		o.Loader = d.Loader
	}
	orDefault(&o.MaxCostPerExpression, d.MaxCostPerExpression)
	orDefault(&o.MaxCostPerRender, d.MaxCostPerRender)
	orDefault(&o.MaxIncludeDepth, d.MaxIncludeDepth)
	orDefault(&o.MaxNodes, d.MaxNodes)
	orDefault(&o.MaxDepth, d.MaxDepth)
	orDefault(&o.MaxIterations, d.MaxIterations)
	orDefault(&o.MaxOutputBytes, d.MaxOutputBytes)
	orDefault(&o.MaxTemplateBytes, d.MaxTemplateBytes)
	return o
}

// orDefault sets *v to def when it is zero.
func orDefault[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}
