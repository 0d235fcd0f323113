package celenv

import celast "github.com/google/cel-go/common/ast"

// For `celyaml check`, which finds without evaluating what a render
// reports when it evaluates.

// MisspeltCall is the message a render gives when the expression fails
// on the undeclared name (a misspelt call such as json.encde(x), where CEL
// reads the namespace json as a variable), with its offset, or "".
func (p *Program) MisspeltCall(undeclared string) (msg string, off int) {
	return p.misspeltCall(undeclared)
}

// UnknownCall is the message a render gives for the first call to a
// function that does not exist, with its offset, or "". A member call
// on a name path (yaml.decode(s), lists.range(3)) is a call to the
// namespaced function when one of that name exists.
func (p *Program) UnknownCall() (msg string, off int) {
	celast.PreOrderVisit(p.ast.Expr(), celast.NewExprVisitor(func(x celast.Expr) {
		if msg != "" || x.Kind() != celast.CallKind {
			return
		}
		c := x.AsCall()
		fn := c.FunctionName()
		if p.cache.isFunction(fn) {
			return
		}
		if c.IsMemberFunction() {
			if q, ok := qualifiedName(c.Target()); ok {
				if p.cache.isFunction(q + "." + fn) {
					return
				}
			}
		}
		msg, off = unknownFunctionMsg(fn, p.cache.env.functionHint(fn)), p.offsetOf(x.ID())
	}))
	return msg, off
}
