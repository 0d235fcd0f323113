package celval

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// What a CEL value is, for messages: its type name, and whether it is or
// holds a value not known yet.

// CELTypeNameOf is the CEL type name of v, for messages.
func CELTypeNameOf(v ref.Val) string {
	switch v.(type) {
	case *celMap:
		return "map"
	case *celList:
		return "list"
	}
	if v.Type() == nil {
		return "?"
	}
	return v.Type().TypeName()
}

// HoldsUnknown reports whether v is or holds an unknown value.
func HoldsUnknown(v ref.Val, budget *int) bool {
	*budget--
	if *budget < 0 {
		return false
	}
	switch v := v.(type) {
	case *types.Unknown:
		return true
	case *celMap:
		return valueHoldsUnknown(v.m, budget)
	case *celList:
		return valueHoldsUnknown(v.l, budget)
	case traits.Lister:
		for it := v.Iterator(); it.HasNext() == types.True; {
			if HoldsUnknown(it.Next(), budget) {
				return true
			}
		}
	case traits.Mapper:
		for it := v.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			if el, ok := v.Find(k); ok && HoldsUnknown(el, budget) {
				return true
			}
		}
	}
	return false
}

// valueHoldsUnknown reports whether the engine value v is or holds value.Unknown.
func valueHoldsUnknown(v value.Value, budget *int) bool {
	*budget--
	if *budget < 0 {
		return false
	}
	switch v := v.(type) {
	case value.Unknown:
		return true
	case *value.Map:
		for i := 0; i < v.Len(); i++ {
			_, el := v.At(i)
			if valueHoldsUnknown(el, budget) {
				return true
			}
		}
	case []value.Value:
		for _, el := range v {
			if valueHoldsUnknown(el, budget) {
				return true
			}
		}
	}
	return false
}
