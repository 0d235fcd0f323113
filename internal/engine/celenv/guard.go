package celenv

import (
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv/celval"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// Guards: refusing calls whose result would be far larger than their arguments before they run.

// guardedFunctions can build a result far larger than their arguments in
// one call, before the cost of that result is counted. The program cache
// overrides them with versions that first work out how large the result
// would be and refuse to build one that the cost limit could not pay for.
var guardedFunctions = []string{"replace", "regex.replace", "join", "format", "flatten"}

// guardLimit is the largest result, in bytes, that a guarded call may
// build: what the cost limit pays for at a tenth of a unit per byte,
// capped at celval.MaxHelperOutput.
func guardLimit(costLimit uint64) int {
	if costLimit == 0 || costLimit > celval.MaxHelperOutput/10 {
		return celval.MaxHelperOutput
	}
	return int(costLimit * 10)
}

// overrideFunctions gives the program-level replacements of environment
// functions: the guarded functions, and `matches` with a cache of compiled
// patterns.
func (c *Cache) overrideFunctions() []*functions.Overload {
	limit := guardLimit(c.costLimit)
	out := make([]*functions.Overload, 0, len(guardedFunctions)+1)
	for _, name := range guardedFunctions {
		orig := c.env.fns[name]
		tooLarge := guardEstimators[name]
		g := &functions.Overload{Operator: name, OperandTrait: orig.OperandTrait, NonStrict: orig.NonStrict}
		if orig.Unary != nil {
			g.Unary = func(a ref.Val) ref.Val {
				if tooLarge([]ref.Val{a}, limit) {
					return costGuardError()
				}
				return orig.Unary(a)
			}
		}
		if orig.Binary != nil {
			g.Binary = func(a, b ref.Val) ref.Val {
				if tooLarge([]ref.Val{a, b}, limit) {
					return costGuardError()
				}
				return orig.Binary(a, b)
			}
		}
		if orig.Function != nil {
			g.Function = func(args ...ref.Val) ref.Val {
				if tooLarge(args, limit) {
					return costGuardError()
				}
				return orig.Function(args...)
			}
		}
		out = append(out, g)
	}
	orig := c.env.fns["matches"]
	m := &functions.Overload{Operator: "matches", OperandTrait: orig.OperandTrait, NonStrict: orig.NonStrict}
	m.Binary = func(a, b ref.Val) ref.Val {
		s, ok1 := a.(types.String)
		pat, ok2 := b.(types.String)
		if !ok1 || !ok2 {
			if orig.Binary != nil {
				return orig.Binary(a, b)
			}
			return orig.Function(a, b)
		}
		re, err := cachedRegex(string(pat))
		if err != nil {
			return types.WrapErr(err)
		}
		return types.Bool(re.MatchString(string(s)))
	}
	if orig.Function != nil {
		m.Function = func(args ...ref.Val) ref.Val {
			if len(args) == 2 {
				return m.Binary(args[0], args[1])
			}
			return orig.Function(args...)
		}
	}
	return append(out, m)
}

// costGuardError stops the evaluation as over the cost limit.
func costGuardError() ref.Val {
	panic(interpreter.EvalCancelledError{Cause: interpreter.CostLimitExceeded, Message: "operation cancelled: the result would pass the cost limit"})
}

var (
	regexCache     sync.Map // pattern -> *regexp.Regexp
	regexCacheSize atomic.Int64
)

// cachedRegex compiles pattern once per process, for the first 1000
// patterns.
func cachedRegex(pattern string) (*regexp.Regexp, error) {
	if cached, ok := regexCache.Load(pattern); ok {
		if re, ok := cached.(*regexp.Regexp); ok {
			return re, nil
		}
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	if regexCacheSize.Add(1) <= 1000 {
		regexCache.Store(pattern, re)
	}
	return re, nil
}

var guardEstimators = map[string]func(args []ref.Val, limit int) bool{
	"replace":       replaceTooLarge,
	"regex.replace": regexReplaceTooLarge,
	"join":          joinTooLarge,
	"format":        formatTooLarge,
	"flatten":       flattenTooLarge,
}

func stringArgs(args []ref.Val, n int) ([]string, bool) {
	if len(args) < n {
		return nil, false
	}
	out := make([]string, n)
	for i := 0; i < n; i++ {
		s, ok := args[i].(types.String)
		if !ok {
			return nil, false
		}
		out[i] = string(s)
	}
	return out, true
}

// replaceCount is the optional count argument of replace, -1 for all.
func replaceCount(args []ref.Val, i int) int {
	if len(args) > i {
		if n, ok := args[i].(types.Int); ok && n >= 0 {
			return int(min(n, types.Int(celval.MaxHelperOutput)))
		}
	}
	return -1
}

func replaceTooLarge(args []ref.Val, limit int) bool {
	s, ok := stringArgs(args, 3)
	if !ok {
		return false
	}
	target, search, with := s[0], s[1], s[2]
	if len(with) <= len(search) {
		return len(target) > limit
	}
	var n int
	if search == "" {
		n = utf8.RuneCountInString(target) + 1
	} else {
		n = strings.Count(target, search)
	}
	if c := replaceCount(args, 3); c >= 0 && c < n {
		n = c
	}
	return len(target)+n*(len(with)-len(search)) > limit
}

func regexReplaceTooLarge(args []ref.Val, limit int) bool {
	s, ok := stringArgs(args, 3)
	if !ok {
		return false
	}
	target, pattern, with := s[0], s[1], s[2]
	refs := strings.Count(with, `\`)
	// Each match is replaced by `with`, whose group references expand to
	// at most the match itself.
	bound := len(target) + (len(target)+1)*(len(with)+refs*len(target))
	if bound <= limit && bound >= 0 {
		return false
	}
	re, err := cachedRegex(pattern)
	if err != nil {
		return false // the function itself reports the bad pattern
	}
	size := len(target)
	for _, m := range re.FindAllStringIndex(target, replaceCount(args, 3)) {
		size += len(with) + refs*(m[1]-m[0]) - (m[1] - m[0])
		if size > limit {
			return true
		}
	}
	return false
}

func joinTooLarge(args []ref.Val, limit int) bool {
	if len(args) == 0 {
		return false
	}
	l, ok := args[0].(traits.Lister)
	if !ok {
		return false
	}
	n, _ := l.Size().(types.Int)
	if int64(n) > int64(limit) {
		return true
	}
	size := 0
	if len(args) > 1 {
		if sep, ok := args[1].(types.String); ok && n > 1 {
			size = len(sep) * (int(n) - 1)
		}
	}
	for it := l.Iterator(); it.HasNext() == types.True && size <= limit; {
		if s, ok := it.Next().(types.String); ok {
			size += len(s)
		}
	}
	return size > limit
}

func formatTooLarge(args []ref.Val, limit int) bool {
	if len(args) < 2 {
		return false
	}
	size := int(sizeOf(args[0]))
	return logicalSize(args[1], &size, limit)
}

// logicalSize adds the printed size of v to *size, walking nested lists
// and maps, and reports whether it passed limit.
func logicalSize(v ref.Val, size *int, limit int) bool {
	*size += 2
	if *size > limit {
		return true
	}
	switch v := v.(type) {
	case types.String:
		*size += len(v)
	case types.Bytes:
		*size += len(v) * 4
	case traits.Lister:
		for it := v.Iterator(); it.HasNext() == types.True; {
			if logicalSize(it.Next(), size, limit) {
				return true
			}
		}
	case traits.Mapper:
		for it := v.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			if logicalSize(k, size, limit) {
				return true
			}
			if el, ok := v.Find(k); ok && logicalSize(el, size, limit) {
				return true
			}
		}
	default:
		*size += 24
	}
	return *size > limit
}

func flattenTooLarge(args []ref.Val, limit int) bool {
	if len(args) == 0 {
		return false
	}
	depth := int64(1)
	if len(args) > 1 {
		if d, ok := args[1].(types.Int); ok {
			depth = int64(d)
		}
	}
	count := 0
	return flattenCount(args[0], depth, &count, limit/16)
}

func flattenCount(v ref.Val, depth int64, count *int, limit int) bool {
	l, ok := v.(traits.Lister)
	if !ok {
		*count++
		return *count > limit
	}
	if depth < 0 {
		*count++
		return *count > limit
	}
	for it := l.Iterator(); it.HasNext() == types.True; {
		if flattenCount(it.Next(), depth-1, count, limit) {
			return true
		}
	}
	return *count > limit
}
