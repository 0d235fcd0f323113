package engine

import "github.com/celyaml/terraform-provider-celyaml/internal/engine/value"

// The engine's values live in the leaf package value, shared with the
// emitters, the schema validator and the CEL environment; these aliases
// keep engine.Value and engine.Map the names callers use.
type (
	// Value is an engine value: nil, bool, int64, float64, string, *Map,
	// []Value or Unknown. See package value.
	Value = value.Value
	// Map is a mapping with string keys that keeps insertion order.
	Map = value.Map
	// Unknown stands for a value that is not known yet, with its type
	// when that is known.
	Unknown = value.Unknown
	// Type is the type of an Unknown.
	Type = value.Type
)

// The types of an Unknown; see package value.
var (
	TypeDynamic = value.TypeDynamic
	TypeString  = value.TypeString
	TypeNumber  = value.TypeNumber
	TypeBool    = value.TypeBool
)

// UnknownOf gives the unknown value of type t, allocating nothing.
func UnknownOf(t Type) Value { return value.UnknownOf(t) }

// NewMap returns an empty map with room for n entries.
func NewMap(n int) *Map { return value.NewMap(n) }

// UnknownStream is the only element of the document list Render returns
// when the number of documents is not known yet.
var UnknownStream = value.UnknownStream

// IsUnknownStream reports whether docs is the unknown stream.
func IsUnknownStream(docs []Value) bool { return value.IsUnknownStream(docs) }
