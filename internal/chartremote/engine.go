package chartremote

import (
	"context"
	"errors"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/chart"
)

// ForEngine is the engine's FetchChart option (reference §11): Fetch
// with o. The engine's error already names the chart, its version and
// the repository, so the error returned says only what went wrong.
func ForEngine(o Options) func(context.Context, chart.Remote) (string, error) {
	return func(ctx context.Context, r chart.Remote) (string, error) {
		p, err := Fetch(ctx, Remote(r), o)
		var e *Error
		if errors.As(err, &e) {
			return "", e.Err
		}
		return p, err
	}
}
