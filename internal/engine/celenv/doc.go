// Package celenv is the CEL environment of the engine: the libraries every
// expression can use (reference §5), the compiled-program cache,
// evaluation with cost limits and cancellation, the conversion between
// engine values and CEL values, and error messages that never carry a
// variable's value.
//
// Expressions are parsed, never type-checked: variables are not declared,
// so any name in scope can be used, and the caller's activation (the
// engine's scope) supplies values at evaluation time. A Cache compiles an
// expression once (cache.go); the program's planned nodes are decorated
// (decorate.go) so that every call is priced as Kubernetes prices
// validation rules (cost.go), calls whose result would dwarf their
// arguments are refused before they run (guard.go), and map literals are
// walked in sorted key order (celval.SortMap). Program.Eval (eval.go) runs a
// program within the render's budget and turns a failure into an Error
// whose message is sanitised (message.go) and, where it fits, followed by a
// hint (hints.go gathers the facts from the program; package hint words
// them). Values cross with ToCEL and FromCEL (values.go) without copying
// the engine's maps and lists; package celval, below this one, does the
// conversion and holds the helper library.
package celenv
