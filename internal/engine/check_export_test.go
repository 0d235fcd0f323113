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
	fr := sourceFrame(src)
	r := e.newRenderer(ctx)
	if len(src.Text) > e.opts.MaxTemplateBytes {
		return &Error{Pos: Pos{File: fr.file, Line: 1, Column: 1}, Msg: "template too large"}
	}
	f := compileFile(src.Text)
	if f.err != nil {
		return r.compileErr(fr, f.err)
	}
	if err := r.checkDepth(f, fr); err != nil {
		return err
	}
	return nil
}
