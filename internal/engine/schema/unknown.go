package schema

import (
	"strconv"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// inBranch reports whether a schema location lies in a then or else
// branch. A property named "then" or "else" counts too, which only makes
// the check more careful.
func inBranch(url string) bool {
	_, frag, _ := strings.Cut(url, "#")
	for seg := range strings.SplitSeq(frag, "/") {
		if seg == "then" || seg == "else" {
			return true
		}
	}
	return false
}

// shapeOnly reports whether a failure depends only on the kind of its
// instance, its keys or its length, and not on the values inside it:
// those are known even when values inside are not.
func shapeOnly(k jsonschema.ErrorKind) bool {
	switch k.(type) {
	case *kind.Type, *kind.Required, *kind.AdditionalProperties, *kind.PropertyNames,
		*kind.Dependency, *kind.DependentRequired, *kind.MinProperties, *kind.MaxProperties,
		*kind.MinItems, *kind.MaxItems, *kind.AdditionalItems:
		return true
	}
	return false
}

// unknownAt reports whether the part of v at an instance location is an
// Unknown or lies inside one, or, with inside set, holds one anywhere.
func unknownAt(v value.Value, loc []string, inside bool) bool {
	for _, tok := range loc {
		switch x := v.(type) {
		case *value.Map:
			v, _ = x.Get(tok)
		case []value.Value:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return false
			}
			v = x[i]
		case value.Unknown:
			return true
		default:
			return false
		}
	}
	if inside {
		return hasUnknown(v)
	}
	_, unknown := v.(value.Unknown)
	return unknown
}

// hasUnknown reports whether v holds an Unknown anywhere.
func hasUnknown(v value.Value) bool {
	switch x := v.(type) {
	case value.Unknown:
		return true
	case *value.Map:
		for i := 0; i < x.Len(); i++ {
			if _, val := x.At(i); hasUnknown(val) {
				return true
			}
		}
	case []value.Value:
		for _, item := range x {
			if hasUnknown(item) {
				return true
			}
		}
	}
	return false
}
