package engine

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/emit"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// The output of a render is written by package emit; these are the entry
// points callers of the engine use.

// EncodeYAMLStream writes docs as a YAML stream, documents separated by
// "---". See emit.EncodeYAMLStream.
func EncodeYAMLStream(docs []value.Value) ([]byte, error) { return emit.EncodeYAMLStream(docs) }

// EncodeYAMLStreamSpans is EncodeYAMLStream that also gives each
// document's byte span in the stream.
func EncodeYAMLStreamSpans(docs []value.Value) ([]byte, [][2]int, error) {
	return emit.EncodeYAMLStreamSpans(docs)
}

// AppendJSON appends v as compact JSON. See emit.AppendJSON.
func AppendJSON(dst []byte, v value.Value, sortKeys bool) ([]byte, error) {
	return emit.AppendJSON(dst, v, sortKeys)
}

// EncodeYAML writes v as one YAML document, as EncodeYAMLStream writes
// each document of a stream.
func EncodeYAML(v value.Value) ([]byte, error) { return emit.AppendYAML(nil, v) }

// EncodeJSONStream writes docs as the JSON the provider's `json` attribute
// and `celyaml render -o json` hold: one document as itself, none as [],
// several as an array; compact, keys in template order.
func EncodeJSONStream(docs []value.Value) ([]byte, error) {
	var v value.Value = docs
	switch len(docs) {
	case 0:
		v = []value.Value{}
	case 1:
		v = docs[0]
	}
	return emit.AppendJSON(nil, v, false)
}
