package engine

import (
	"slices"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// The directive table's order is the order of evaluation (preludes, then
// producers), of the missing-partner checks and of "did you mean": each
// directive registers at its rank, and this is the order they give.
func TestDirectiveTable_orderIsEvaluationOrder(t *testing.T) {
	want := []string{
		"$schema", "$let", "$assert", "$msg",
		"$if", "$then", "$else", "$for", "$do", "$eval", "$key", "$value", "$include", "$with",
		"$overlay", "$expects", "$match", "$remove", "$append", "$transform",
		"$chart", "$values", "$release", "$kubeVersion", "$apiVersions", "$includeCRDs", "$hooks", "$skipTests",
	}
	if got := tree.DirectiveNames(); !slices.Equal(got, want) {
		t.Errorf("directive table order:\n got %q\nwant %q", got, want)
	}
}
