package engine

// STUB: replaced by the CEL environment work. Signatures are the contract.

import "github.com/google/cel-go/common/types/ref"

// toCEL converts an engine value to a CEL value.
func toCEL(v Value) ref.Val { panic("not implemented") }

// fromCEL converts a CEL result to an engine value. present is false for
// optional.none(), which gives nothing.
func fromCEL(v ref.Val) (val Value, present bool, err error) { panic("not implemented") }

// stringify turns a segment's value into text for a mixed $eval string,
// following LANGUAGE.md §3.
func stringify(v ref.Val) (string, error) { panic("not implemented") }
