package celenv

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv/celval"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/ext"
	"k8s.io/apiserver/pkg/cel/library"
)

// The environment: the libraries every expression can use (reference §5)
// and the template helpers (json, yaml, deepMerge, sha256, truthy).

// Pinned library versions. Changing one can change what a template renders,
// so each is a deliberate decision, listed in the functions guide.
const (
	optionalTypesVersion   = 2
	extStringsVersion      = 5
	extListsVersion        = 3
	extMathVersion         = 3
	extSetsVersion         = 0
	extEncodersVersion     = 0 // base64 only: json.encode is the engine's own
	extBindingsVersion     = 1
	extComprehensionsVer   = 0
	extRegexVersion        = 0
	k8sListsVersion        = 1
	k8sSemverVersion       = 1
	maxExprBytes           = 100 << 10 // longer expressions are refused before parsing
	maxParseRecursion      = 200       // nesting depth the parser accepts
	interruptCheckInterval = 100       // comprehension steps between cancellation checks
	maxCacheEntries        = 1 << 16   // the cache is dropped when it grows past this
)

// celEnvironment is the process-wide CEL environment, built at the first
// compile (not at package init, so provider start-up stays cheap).
type celEnvironment struct {
	env *cel.Env
	// fns maps a function name to its function-level implementation, the
	// one cel-go's planner picks for a call in an unchecked program.
	fns map[string]*functions.Overload
	// names lists the functions a template can call by name (not the
	// operators), sorted, for suggestions after a misspelt call.
	names []string
}

var (
	envOnce sync.Once
	envVal  *celEnvironment
	envErr  error
)

func sharedEnv() (*celEnvironment, error) {
	envOnce.Do(func() { envVal, envErr = newCELEnvironment() })
	return envVal, envErr
}

func newCELEnvironment() (*celEnvironment, error) {
	env, err := cel.NewEnv(
		cel.CrossTypeNumericComparisons(true),
		cel.DefaultUTCTimeZone(true),
		cel.OptionalTypes(cel.OptionalTypesVersion(optionalTypesVersion)),
		ext.Strings(ext.StringsVersion(extStringsVersion)),
		ext.Lists(ext.ListsVersion(extListsVersion)),
		ext.Math(ext.MathVersion(extMathVersion)),
		ext.Sets(ext.SetsVersion(extSetsVersion)),
		ext.Encoders(ext.EncodersVersion(extEncodersVersion)),
		ext.Bindings(ext.BindingsVersion(extBindingsVersion)),
		ext.TwoVarComprehensions(ext.TwoVarComprehensionsVersion(extComprehensionsVer)),
		ext.Regex(ext.RegexVersion(extRegexVersion)),
		library.Lists(library.ListsVersion(k8sListsVersion)),
		library.Regex(),
		library.URLs(),
		library.Quantity(),
		library.IP(),
		library.CIDR(),
		library.SemverLib(library.SemverVersion(k8sSemverVersion)),
		library.Format(),
		celval.Helpers(),
		cel.ParserRecursionLimit(maxParseRecursion),
		cel.ParserExpressionSizeLimit(maxExprBytes),
	)
	if err != nil {
		return nil, err
	}
	ce := &celEnvironment{env: env, fns: map[string]*functions.Overload{}}
	for _, m := range env.Macros() {
		name := m.Function()
		if ns, ok := namespacedMacros[name]; ok {
			name = ns
		}
		ce.addName(name)
	}
	for name, fd := range env.Functions() {
		ce.addName(name)
		bs, err := fd.Bindings()
		if err != nil {
			return nil, err
		}
		for _, b := range bs {
			if b.Operator == name {
				ce.fns[name] = b
			}
		}
	}
	for _, name := range guardedFunctions {
		if ce.fns[name] == nil {
			return nil, fmt.Errorf("function %s has no implementation", name)
		}
	}
	if ce.fns["matches"] == nil {
		return nil, errors.New("function matches has no implementation")
	}
	sort.Strings(ce.names)
	ce.names = slices.Compact(ce.names)
	return ce, nil
}

// namespacedMacros gives the full name of the macros that are called
// through a namespace: Macro.Function has only the last part.
var namespacedMacros = map[string]string{"bind": "cel.bind", "greatest": "math.greatest", "least": "math.least"}

// addName keeps name for suggestions if a template can write it as a call:
// not an operator (_+_, -_, @in), not an internal function (cel.@block),
// and not the keyword in.
func (ce *celEnvironment) addName(name string) {
	if name != "in" && isCallName(name) {
		ce.names = append(ce.names, name)
	}
}

// isCallName reports whether name is a dotted chain of identifiers, each a
// letter followed by letters, digits and underscores.
func isCallName(name string) bool {
	for part := range strings.SplitSeq(name, ".") {
		for i, c := range part {
			letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			if !letter && (i == 0 || c != '_' && (c < '0' || c > '9')) {
				return false
			}
		}
		if part == "" {
			return false
		}
	}
	return true
}

// misspeltCall looks for a call to a function that does not exist but is
// close to one that does, in an expression that failed on the undeclared
// name undeclared. Such a name is often a symptom of the misspelt call:
// in json.encde(x) CEL reads the namespace json as a variable, and in
// list.exist(x, x > 0) the misspelt macro leaves x unbound. It gives the
// message and the call's offset, or "".
func (p *Program) misspeltCall(undeclared string) (msg string, off int) {
	celast.PreOrderVisit(p.ast.Expr(), celast.NewExprVisitor(func(x celast.Expr) {
		if msg != "" || x.Kind() != celast.CallKind {
			return
		}
		c := x.AsCall()
		fn := c.FunctionName()
		if c.IsMemberFunction() {
			if q, ok := qualifiedName(c.Target()); ok && (q == undeclared || strings.HasPrefix(q, undeclared+".")) {
				fn = q + "." + fn // a namespace, not a variable
			}
		}
		if p.cache.isFunction(fn) {
			return
		}
		if h := p.cache.env.functionHint(fn); h != "" {
			msg, off = unknownFunctionMsg(fn, h), p.offsetOf(x.ID())
		}
	}))
	return msg, off
}

// unknownCall finds the first call to a function that does not exist, and
// gives its message and offset, or "".
func (p *Program) unknownCall() (msg string, off int) {
	celast.PreOrderVisit(p.ast.Expr(), celast.NewExprVisitor(func(x celast.Expr) {
		if msg != "" || x.Kind() != celast.CallKind {
			return
		}
		fn := x.AsCall().FunctionName()
		if !p.cache.isFunction(fn) {
			msg, off = unknownFunctionMsg(fn, p.cache.env.functionHint(fn)), p.offsetOf(x.ID())
		}
	}))
	return msg, off
}

// unknownFunctionMsg says that fn is no function, with hint from
// functionHint.
func unknownFunctionMsg(fn, hint string) string {
	return "unknown function " + fn + hint
}

// closestFunction names the function a misspelt call probably meant: one
// that differs only in case (startswith), one a couple of edits away, or
// one that the name begins (upper: upperAscii). It gives "" when none is
// close.
func (ce *celEnvironment) closestFunction(fn string) string {
	if s := hint.Nearest(fn, ce.names, hint.TypoLimit(fn), true); s != "" || len(fn) < 4 {
		return s
	}
	return hint.WithPrefix(fn, ce.names)
}
