package celval

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// truthy(v): Helm's notion of "set" (reference §5). false, 0, 0.0, 0u, "",
// [], {}, null and an empty optional give false; everything else true. It
// takes a value or an optional, so truthy(values.?port) needs no orValue.
//
// An unknown argument gives an unknown (the call is strict, as every
// helper's is), and so does an optional that holds an unknown. A list or
// map that holds unknowns is still known to be empty or not. The call
// reads a size or compares one scalar, so it costs one unit whatever the
// argument, long text included (stdCallCost).

// truthyFunction declares truthy for the helper library.
func truthyFunction() cel.EnvOption {
	return cel.Function("truthy",
		cel.Overload("celyaml_truthy_dyn", []*cel.Type{cel.DynType}, cel.BoolType,
			cel.UnaryBinding(truthyFn)))
}

func truthyFn(v ref.Val) ref.Val {
	if o, ok := v.(*types.Optional); ok {
		if !o.HasValue() {
			return types.False
		}
		v = o.GetValue()
	}
	switch x := v.(type) {
	case *types.Unknown, *types.Err:
		return x
	case types.Null:
		return types.False
	case types.Bool:
		return x
	case types.Int:
		return types.Bool(x != 0)
	case types.Uint:
		return types.Bool(x != 0)
	case types.Double:
		return types.Bool(x != 0) // NaN is set, as in Helm
	case types.String:
		return types.Bool(x != "")
	case types.Bytes:
		return types.True // not in the reference's list of unset values
	case traits.Sizer:
		n, ok := x.Size().(types.Int)
		return types.Bool(!ok || n != 0)
	}
	return types.True
}
