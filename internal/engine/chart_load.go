package engine

import (
	"context"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/chart"
)

// Chart is a Helm chart as a $chart names it (reference §11): Name,
// Defaults (its values.yaml) and Schema (its values.schema.json) are what
// check and the editor read to find $values typos.
type Chart = chart.Chart

// ChartRemote is a remote chart a $chart names (repository, name, exact
// version, digest): what Options.FetchChart is asked for.
type ChartRemote = chart.Remote

// LoadChart loads the chart folder or .tgz at path through the engine's
// Loader and within its MaxTemplateBytes, as a $chart does (a relative
// path against the working directory; resolve it against the template's
// folder first).
func (e *Engine) LoadChart(ctx context.Context, path string) (*Chart, error) {
	o := e.opts.WithDefaults()
	return chart.Load(path, chart.LoaderFiles(ctx, o.Loader, o.MaxTemplateBytes))
}
