package engine

// STUB: replaced by the $schema work. Signatures are the contract.

import "go.yaml.in/yaml/v3"

// schemaSet is a compiled $schema directive.
type schemaSet struct{}

// nodeError is an error at a node of the template.
type nodeError struct {
	node *yaml.Node
	msg  string
}

// compileSchemaSet compiles the value of a $schema key.
func compileSchemaSet(n *yaml.Node) (*schemaSet, *nodeError) { panic("not implemented") }

// check validates the visible variables. It returns the defaults to bind
// for absent variables, and every failure with its path.
func (s *schemaSet) check(lookup func(name string) (Value, bool)) (defaults []binding, failures []string) {
	panic("not implemented")
}

// binding is a name and a value.
type binding struct {
	name string
	val  Value
}
