package celenv

import (
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv/celval"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"k8s.io/apiserver/pkg/cel/library"
)

// Costs: how a function call is priced at run time, as Kubernetes prices validation rules.

// callCost prices a function call at run time. The programs a render runs
// are not type-checked, so calls carry no overload id and cel-go's
// per-overload prices do not apply. Calls are priced by function name and by the values
// seen: the Kubernetes prices first, then CEL's standard ones, and at least
// a tenth of a unit per byte or element of the result, so that building a
// large string or list always costs in proportion.
func callCost(function string, args []ref.Val, result ref.Val) uint64 {
	var cost uint64
	if c := k8sCallCost(function, args, result); c != nil {
		cost = *c
	} else if c, ok := stdCallCost(function, args); ok {
		cost = c
	} else {
		cost = 1
		for _, a := range args {
			switch a.(type) {
			case types.String, types.Bytes:
				cost += tenth(sizeOf(a))
			}
		}
	}
	if function == "_+_" && len(args) == 2 {
		// A comprehension's accumulator grows in place: price only what
		// is appended, or `map` over n items would cost n².
		if _, mutable := args[0].(traits.MutableLister); mutable {
			result = args[1]
		}
	}
	// Text costs a tenth per byte, as in Kubernetes. Lists and maps cost
	// one per element they hold: each element takes tens of bytes, so a
	// cheaper price would let one expression allocate hundreds of MB
	// within its cost limit.
	rc := sizeOf(result)
	switch result.(type) {
	case types.String, types.Bytes:
		rc = tenth(rc)
	}
	if rc > cost {
		cost = rc
	}
	switch function {
	case "json.decode", "yaml.decode":
		// A short text can decode to many nodes (YAML aliases).
		cost = max(cost, deepSize(result, celval.MaxConvertNodes))
	}
	return max(cost, 1)
}

var k8sCosts = &library.CostEstimator{}

// k8sPriced lists the functions the Kubernetes estimator prices (its
// equality prices only apply to Kubernetes values, which cost 1 anyway).
var k8sPriced = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`check serviceAccount path group resource subresource namespace name allowed
		reason error errored fieldSelector labelSelector isSorted sum max min indexOf lastIndexOf includes
		url lowerAscii upperAscii substring trim jsonpatch.escapeKey replace split join find findAll cidr
		isIP isCIDR ip ip.isCanonical masked prefixLength family isUnspecified isLoopback
		isLinkLocalMulticast isLinkLocalUnicast isGlobalUnicast containsIP containsCIDR quantity
		isQuantity semver isSemver validate format.named sign asInteger isInteger asApproximateFloat
		isGreaterThan isLessThan compareTo add sub major minor patch getScheme getHostname getHost
		getPort getEscapedPath getQuery`) {
		m[n] = true
	}
	return m
}()

// k8sCallCost asks the Kubernetes estimator. It gets a copy of the
// arguments: it may keep them, and the caller's slice lives on its stack.
func k8sCallCost(function string, args []ref.Val, result ref.Val) *uint64 {
	if !k8sPriced[function] {
		return nil
	}
	return k8sCosts.CallCost(function, "", append([]ref.Val(nil), args...), result)
}

// tenth is n × 0.1, CEL's traversal cost factor, rounded up.
func tenth(n uint64) uint64 { return (n + 9) / 10 }

// sizeOf is the size of a value for pricing: bytes of a string, elements
// of a list or map, 1 for anything else.
func sizeOf(v ref.Val) uint64 {
	switch v := v.(type) {
	case types.String:
		return uint64(len(v))
	case types.Bytes:
		return uint64(len(v))
	case traits.Sizer:
		if n, ok := v.Size().(types.Int); ok && n > 0 {
			return uint64(n)
		}
		return 0
	case *types.Optional:
		if v.HasValue() {
			return sizeOf(v.GetValue())
		}
	}
	return 1
}

// stdCallCost prices CEL's standard functions the way cel-go does for
// checked programs.
func stdCallCost(function string, args []ref.Val) (uint64, bool) {
	switch function {
	case "_+_":
		if len(args) == 2 {
			switch args[0].(type) {
			case types.String, types.Bytes:
				return tenth(sizeOf(args[0]) + sizeOf(args[1])), true
			}
		}
	case "startsWith", "endsWith":
		if len(args) == 2 {
			return 1 + tenth(sizeOf(args[1])), true
		}
	case "contains":
		if len(args) == 2 {
			return 1 + tenth(sizeOf(args[0]))*tenth(sizeOf(args[1])), true
		}
	case "matches":
		if len(args) == 2 {
			str := tenth(1 + sizeOf(args[0]))
			re := (sizeOf(args[1]) + 3) / 4
			return 1 + str*re, true
		}
	case "@in":
		if len(args) == 2 {
			if _, ok := args[1].(traits.Lister); ok {
				return 1 + sizeOf(args[1]), true
			}
			return 1, true
		}
	case "_==_", "_!=_", "_<_", "_<=_", "_>_", "_>=_":
		if len(args) == 2 {
			return 1 + tenth(min(sizeOf(args[0]), sizeOf(args[1]))), true
		}
	case "string", "bytes":
		if len(args) == 1 {
			return 1 + tenth(sizeOf(args[0])), true
		}
	case "truthy":
		return 1, true // a size or one scalar, whatever the argument's size
	}
	return 0, false
}
