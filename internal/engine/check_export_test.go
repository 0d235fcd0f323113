package engine

import "context"

// CompileTimeError is the error a render of the file at path reports
// before it evaluates any expression (a YAML error, a directive error of
// the compiler, a limit on the template's size or depth), or nil when a
// render gets as far as evaluating. For the test that holds check to
// render's findings.
func CompileTimeError(ctx context.Context, e *Engine, path string) error {
	src, err := e.LoadFile(ctx, path)
	if err != nil {
		return err
	}
	return e.w.CompileTimeError(ctx, src)
}
