package options

import (
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/loader"
)

func TestWithDefaults_fillsOnlyTheZeroFields(t *testing.T) {
	got := Options{MaxNodes: 7, MaxDepth: 3, Namespace: "apps"}.WithDefaults()
	want := Default()
	want.MaxNodes, want.MaxDepth, want.Namespace = 7, 3, "apps"
	if got.MaxNodes != want.MaxNodes || got.MaxDepth != want.MaxDepth || got.Namespace != want.Namespace ||
		got.MaxCostPerExpression != want.MaxCostPerExpression || got.MaxCostPerRender != want.MaxCostPerRender ||
		got.MaxIncludeDepth != want.MaxIncludeDepth || got.MaxIterations != want.MaxIterations ||
		got.MaxOutputBytes != want.MaxOutputBytes || got.MaxTemplateBytes != want.MaxTemplateBytes {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if _, ok := got.Loader.(loader.OSLoader); !ok {
		t.Errorf("Loader: got %T, want loader.OSLoader", got.Loader)
	}
}
