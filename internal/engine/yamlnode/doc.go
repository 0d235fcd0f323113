// Package yamlnode turns parsed YAML nodes that hold plain data into engine
// values, so that templates, yaml.decode and $schema defaults read YAML the
// same way: the YAML 1.2 core schema as go.yaml.in/yaml/v3 resolves it,
// ints as int64 (or exact big values), floats as float64, aliases followed
// under a budget so an alias bomb fails fast.
//
// Its Error is an error at a node; the engine adds the file, the directive
// path and the include chain when it reports one.
package yamlnode
