package celenv

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv/celval"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// The conversion between engine values and CEL values, as the walker, the
// directives and the provider call it: each name forwards to package celval.

// ToCEL converts an engine value to a CEL value.
func ToCEL(v value.Value) ref.Val { return celval.ToCEL(v) }

// FromCEL converts a CEL result to an engine value. present is false for
// optional.none(), which gives nothing.
func FromCEL(v ref.Val) (val value.Value, present bool, err error) { return celval.FromCEL(v) }

// FromCELOutput is FromCEL for a value that becomes part of the output: a
// NaN or infinite double anywhere in it is an error.
func FromCELOutput(v ref.Val) (val value.Value, present bool, err error) {
	return celval.FromCELOutput(v)
}

// Element is an element of a list or map that CEL built, as a loop binds
// it: an unknown in it is of dynamic type.
func Element(v ref.Val) ref.Val { return celval.Element(v) }

// Stringify turns a segment's value into text for a mixed $eval string,
// following reference §3.
func Stringify(v ref.Val) (string, error) { return celval.Stringify(v) }

// TypeName names the type of a CEL value for messages: "nothing" for no
// value, "unknown" for a value not known yet.
func TypeName(v ref.Val) string { return celval.TypeName(v) }

// AsMap gives the engine map a CEL value wraps, when it wraps one.
func AsMap(v ref.Val) (*value.Map, bool) { return celval.AsMap(v) }

// AsList gives the engine list a CEL value wraps, when it wraps one.
func AsList(v ref.Val) ([]value.Value, bool) { return celval.AsList(v) }

// SortedKeys returns a map's keys in the order CEL map values are walked
// everywhere in the engine: bools, then numbers, then strings.
func SortedKeys(m traits.Mapper) []ref.Val { return celval.SortedKeys(m) }
