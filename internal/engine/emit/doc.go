// Package emit writes engine values as YAML and JSON text: the output of a
// render, yaml.encode and json.encode, and every place a value becomes text.
//
// yaml.go is the block-style YAML emitter, byte for byte what
// go.yaml.in/yaml/v3 writes for the same tree apart from the deliberate
// differences it lists; quote.go decides how a string must be written so
// that no YAML 1.1 or 1.2 reader takes it for another type (resolve.go:
// what yaml.v3 reads as another type; yaml11.go: what a YAML 1.1 reader
// does), and scalar.go writes it in that style; json.go is the JSON emitter. Emitters append to the caller's buffer; they never check a
// size limit (the renderer does).
package emit
