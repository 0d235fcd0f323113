// Package emit writes engine values as YAML and JSON text: the output of a
// render, yaml.encode and json.encode, and every place a value becomes text.
//
// The YAML emitter writes block style, byte for byte what
// go.yaml.in/yaml/v3 writes for the same tree apart from the deliberate
// differences its tests list; the quoting rules decide how a string must
// be written so that no YAML 1.1 or 1.2 reader takes it for another type
// (reference §6). Emitters append to the caller's buffer; they never check
// a size limit (the renderer does).
package emit
