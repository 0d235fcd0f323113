package engine

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/directive"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/overlay"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
)

// The engine, assembled in one place: every directive of the language and
// every stage of a render is named here, and nowhere registers itself.
// A stage left out is a compile error (tree.NewTable and walk.New take
// each one as an argument), not a step the render skips.

// table is the directive table, in evaluation order: the preludes, the
// producers each followed by their partners, then the overlays' and
// transforms' directives, then $chart's (reference §2, §4, §8, §10, §11). The order is the
// order of evaluation, of the missing-partner checks and of "did you
// mean" (TestDirectiveTable_orderIsEvaluationOrder holds its shape, and
// TestReference_namesEveryDirective the order reference §2 states), and
// TestAssembly_listsEveryDirective fails on an entry written in package
// directive or overlay and missing here.
var table = tree.NewTable(
	overlay.CompileEditList, // a sequence of an overlay's patch as an edit list (reference §8)
	directive.Schema(),      // $schema
	directive.Let(),         // $let
	directive.Assert(),      // $assert, $msg
	directive.If(),          // $if, $then, $else
	directive.For(),         // $for, $do
	directive.Eval(),        // $eval
	directive.KeyValue(),    // $key, $value
	directive.Include(),     // $include, $with
	overlay.Overlay(),       // $overlay, $expects
	overlay.ListEdits(),     // $match, $remove, $append
	overlay.Transform(),     // $transform
	directive.Chart(),       // $chart and its options
)

// assemble builds the walker of an engine with options opts: the table
// above, and the Namespace option applied after the transforms
// (reference §10).
func assemble(opts Options) *walk.Engine {
	return walk.New(opts, table, overlay.ApplyNamespace)
}
