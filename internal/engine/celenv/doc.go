// Package celenv is the CEL environment of the engine: the libraries every
// expression can use (reference §5), the compiled-program cache,
// evaluation with cost limits and cancellation, the conversion between
// engine values and CEL values, and error messages that never carry a
// variable's value.
//
// A render parses an expression and runs it without declaring its
// variables: any name in scope can be used, and the caller's activation
// (the engine's scope) supplies values at evaluation time. `celyaml check`
// type-checks the same planned program with CEL's checker over the types
// the template declares (Program.TypeCheck), dyn where nothing is
// declared. A Cache compiles an expression once; every call in the
// program is priced as Kubernetes prices validation rules, calls whose
// result would dwarf their arguments are refused before they run, and map
// literals are walked in sorted key order. Program.Eval runs a program
// within the render's budget and turns a failure into an Error whose
// message is sanitised and, where it fits, followed by a hint (package
// hint words it). Values cross with ToCEL and FromCEL without copying
// the engine's maps and lists; package celval, below this one, does the
// conversion and holds the helper library.
package celenv
