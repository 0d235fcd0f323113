package engine

// STUB: replaced by the CEL environment work. Signatures are the contract.

import (
	"context"

	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// programCache holds compiled programs, shared by every render of an Engine.
type programCache struct{ costLimit uint64 }

func newProgramCache(costLimit uint64) *programCache { return &programCache{costLimit: costLimit} }

// program is one compiled CEL expression.
type program struct{}

// exprError is a CEL compile or evaluation error, positioned inside the
// expression text.
type exprError struct {
	Msg    string
	Offset int    // byte offset into the expression, -1 if unknown
	Limit  string // the limit that was hit, if any
}

// compile returns the cached program for expr. declared reports whether an
// identifier names a variable in scope; it settles the map-literal key rule
// of LANGUAGE.md §3.
func (c *programCache) compile(expr string, declared func(string) bool) (*program, *exprError) {
	panic("not implemented")
}

// eval runs p against act. budget is what is left of the render's cost
// budget; the cost used is subtracted from it.
func (p *program) eval(ctx context.Context, act interpreter.Activation, budget *uint64) (ref.Val, *exprError) {
	panic("not implemented")
}
