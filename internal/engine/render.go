package engine

import "context"

// Render renders a template with variables and returns its documents.
// Documents that render to nothing or null are dropped. Errors are *Error.
func (e *Engine) Render(ctx context.Context, src Source, vars map[string]Value) ([]Value, error) {
	panic("not implemented")
}

// RenderFile reads the template at path through the Loader and renders it.
// Its $include directives resolve against the file's directory.
func (e *Engine) RenderFile(ctx context.Context, path string, vars map[string]Value) ([]Value, error) {
	panic("not implemented")
}

// Eval evaluates one CEL expression with variables.
func (e *Engine) Eval(ctx context.Context, expr string, vars map[string]Value) (Value, error) {
	panic("not implemented")
}
