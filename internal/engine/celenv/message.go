package celenv

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv/celval"
	celast "github.com/google/cel-go/common/ast"
)

// Messages: taking out of CEL's error messages anything that may come from a variable's value.

// sanitizeAt is celval.Sanitize for a failure at a node of a program: when the
// failing node reads no variable, everything its message quotes was
// written in the template (a format string, a map key), and stays.
func (p *Program) sanitizeAt(id int64, msg string) string {
	if out, ok := celval.Reword(msg); ok {
		return out
	}
	if id != 0 && p.readsNoVariable(id) {
		return msg
	}
	return celval.ScrubQuoted(msg)
}

// readsNoVariable reports whether the expression node id and everything
// under it are literals and calls on literals: no identifier at all, so
// not even a comprehension's variable.
func (p *Program) readsNoVariable(id int64) bool {
	n := p.node(id)
	if n == nil {
		return false
	}
	reads := false
	celast.PreOrderVisit(n, celast.NewExprVisitor(func(x celast.Expr) {
		if x.Kind() == celast.IdentKind || x.Kind() == celast.ComprehensionKind {
			reads = true
		}
	}))
	return !reads
}
