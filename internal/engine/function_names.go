package engine

import "github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv"

// FunctionNames lists the CEL functions and macros a template can call by
// name (language reference §5), namespaced ones with their namespace
// (math.greatest), sorted, for the language server's completion. It is
// empty only if the CEL environment cannot be built, when no expression
// compiles either.
func FunctionNames() []string {
	names, _ := celenv.FunctionNames()
	return names
}
