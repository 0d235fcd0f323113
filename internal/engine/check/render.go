package check

import (
	"context"
	"errors"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
)

// Render is Check followed, when Check finds no error, by a render:
// with vars when they are given (non-nil), and otherwise with no variables
// when every input the template declares has a default (or it declares
// none). What the render reports is one more problem. So check finds at
// least what a render with the same values finds, and a render does not
// fail on a template that check passed with the same values.
//
// after, when not nil, takes the rendered documents and may find more (the
// command line encodes them and computes their manifest IDs, as a render
// does); an error it gives is a problem too, at its position when it is an
// *diag.Error.
func Render(ctx context.Context, e *walk.Engine, src walk.Source, vars map[string]value.Value, after func([]walk.Document) error) (problems []Problem, texts [][]byte) {
	declared := func(n string) bool { _, ok := vars[n]; return ok }
	ck := check(ctx, e, src, declared)
	problems, texts = ck.problems, ck.texts
	for _, p := range problems {
		if !p.Warning {
			return problems, texts
		}
	}
	if vars == nil && len(inputsOf(e.Table(), ck.docs, declared)) > 0 {
		return problems, texts
	}
	docs, err := e.RenderDocuments(ctx, src, vars)
	if err == nil && after != nil {
		err = after(docs)
	}
	if err != nil {
		var re *diag.Error
		if !errors.As(err, &re) {
			re = &diag.Error{Pos: diag.Pos{File: walk.SourceFrame(src).File, Line: 1, Column: 1}, Msg: err.Error(), Offset: -1}
		}
		problems = append(problems, Problem{Err: re})
	}
	return problems, texts
}
