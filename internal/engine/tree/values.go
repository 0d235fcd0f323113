package tree

import "github.com/celyaml/terraform-provider-celyaml/internal/engine/value"

// Short names, inside the engine, for the leaf package value's types
// (the facade's values.go documents them for callers).
type (
	Value   = value.Value
	Map     = value.Map
	Unknown = value.Unknown
	Type    = value.Type
)

// TypeDynamic and TypeString are the types of an Unknown that the
// walker and the directives name.
var (
	TypeDynamic = value.TypeDynamic
	TypeString  = value.TypeString
)

// UnknownOf is value.UnknownOf.
func UnknownOf(t Type) Value { return value.UnknownOf(t) }

// NewMap is value.NewMap.
func NewMap(n int) *Map { return value.NewMap(n) }

// UnknownStream is value.UnknownStream: the documents of a render whose
// number of documents is not known yet.
var UnknownStream = value.UnknownStream
