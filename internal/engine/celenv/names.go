package celenv

import "slices"

// FunctionNames lists the functions and macros a template can call by
// name (no operators), namespaced ones with their namespace
// (math.greatest), sorted: what the language server offers in an
// expression. It builds the CEL environment if nothing has yet.
func FunctionNames() ([]string, error) {
	ce, err := sharedEnv()
	if err != nil {
		return nil, err
	}
	return slices.Clone(ce.names), nil
}
