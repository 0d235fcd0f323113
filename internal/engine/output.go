package engine

// STUB: replaced by the output work. Signatures are the contract.

// AppendYAML appends v as one YAML document in block style, ending in a
// newline, without a leading "---".
func AppendYAML(dst []byte, v Value) ([]byte, error) { panic("not implemented") }

// EncodeYAMLStream writes the documents separated by "---" lines.
func EncodeYAMLStream(docs []Value) ([]byte, error) { panic("not implemented") }

// AppendJSON appends v as compact JSON. With sortKeys, map keys are sorted;
// otherwise they keep their order.
func AppendJSON(dst []byte, v Value, sortKeys bool) ([]byte, error) { panic("not implemented") }
