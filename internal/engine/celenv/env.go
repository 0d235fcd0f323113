package celenv

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"
	"k8s.io/apiserver/pkg/cel/library"
)

// This file holds the CEL environment (LANGUAGE.md §5), the program cache,
// and evaluation with cost limits, cancellation and safe error messages.
//
// Expressions are parsed, never type-checked: variables are not declared,
// so any name in scope can be used, and a scope (scope.go) supplies values
// at evaluation time.

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
		templateHelpers(),
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

// templateHelpers declares json.encode/decode, yaml.encode/decode and
// sha256. A qualified name such as json.encode is declared literally;
// CEL resolves `json.encode(x)` to it.
func templateHelpers() cel.EnvOption {
	return cel.Lib(helperLib{})
}

type helperLib struct{}

func (helperLib) LibraryName() string { return "celyaml.helpers" }

func (helperLib) CompileOptions() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Function("json.encode",
			cel.Overload("celyaml_json_encode_dyn", []*cel.Type{cel.DynType}, cel.StringType,
				cel.UnaryBinding(jsonEncodeFn))),
		cel.Function("json.decode",
			cel.Overload("celyaml_json_decode_string", []*cel.Type{cel.StringType}, cel.DynType,
				cel.UnaryBinding(jsonDecodeFn))),
		cel.Function("yaml.encode",
			cel.Overload("celyaml_yaml_encode_dyn", []*cel.Type{cel.DynType}, cel.StringType,
				cel.UnaryBinding(yamlEncodeFn))),
		cel.Function("yaml.decode",
			cel.Overload("celyaml_yaml_decode_string", []*cel.Type{cel.StringType}, cel.DynType,
				cel.UnaryBinding(yamlDecodeFn))),
		cel.Function("sha256",
			cel.Overload("celyaml_sha256_string", []*cel.Type{cel.StringType}, cel.StringType,
				cel.UnaryBinding(sha256Fn)),
			cel.Overload("celyaml_sha256_bytes", []*cel.Type{cel.BytesType}, cel.StringType,
				cel.UnaryBinding(sha256Fn))),
	}
}

func (helperLib) ProgramOptions() []cel.ProgramOption { return nil }

func sha256Fn(v ref.Val) ref.Val {
	var sum [sha256.Size]byte
	switch v := v.(type) {
	case types.String:
		sum = sha256.Sum256([]byte(v))
	case types.Bytes:
		sum = sha256.Sum256([]byte(v))
	default:
		return types.NewErr("no such overload: sha256(%s)", v.Type().TypeName())
	}
	return types.String(hex.EncodeToString(sum[:]))
}

// ---------------------------------------------------------------------------
// Program cache

// Cache holds compiled programs, shared by every render of an Engine.
type Cache struct {
	costLimit uint64

	mu      sync.RWMutex
	entries map[string]*cacheEntry

	initOnce  sync.Once
	env       *celEnvironment
	envErr    error
	overrides []*functions.Overload
	progOpts  []cel.ProgramOption
}

func NewCache(costLimit uint64) *Cache {
	return &Cache{costLimit: costLimit, entries: map[string]*cacheEntry{}}
}

// cacheEntry is one parsed expression and its programs, one per pattern of
// which candidate map keys name a variable in scope.
type cacheEntry struct {
	expr   string
	parsed *celast.AST
	err    *Error
	cands  []keyCandidate

	mask0 atomic.Pointer[Program] // no candidate is declared: the usual case
	mu    sync.Mutex
	progs map[uint64]*Program
}

// keyCandidate is a name that the expression uses freely (not bound by a
// comprehension): as a bare map-literal key (keyIDs) or as an identifier
// (identIDs). Whether it names a variable in scope decides how the
// expression compiles, so that is part of the program cache key:
//
//   - a bare key that names no variable is read as a string (§3);
//   - an identifier that names a variable is resolved as exactly that
//     variable, without first trying qualified names such as `svc.name`.
type keyCandidate struct {
	name     string
	keyIDs   []int64
	identIDs []int64
}

// maxCandidates is how many distinct key identifiers fit the cache key.
// Programs for expressions with more are compiled on each call.
const maxCandidates = 64

// Program is one compiled CEL expression.
type Program struct {
	prg   cel.Program
	ast   *celast.AST
	expr  string
	cache *Cache
	// loops tells whether the expression has comprehensions, the only
	// place where evaluation checks for cancellation; without them it
	// runs in bounded time and a check before it suffices.
	loops bool

	traceOnce sync.Once
	traced    cel.Program
}

// Error is a CEL compile or evaluation error, positioned inside the
// expression text.
type Error struct {
	Msg    string
	Offset int    // byte offset into the expression, -1 if unknown
	Limit  string // the limit that was hit, if any
}

func (c *Cache) init() error {
	c.initOnce.Do(func() {
		c.env, c.envErr = sharedEnv()
		if c.envErr != nil {
			return
		}
		c.overrides = c.overrideFunctions()
		c.progOpts = []cel.ProgramOption{
			cel.InterruptCheckFrequency(interruptCheckInterval),
			cel.Functions(c.overrides...),
			cel.CustomDecoratorV2(c.decorate),
		}
	})
	return c.envErr
}

// lookup finds the implementation cel-go's planner uses for a call to the
// function name: an override of the program cache, or the environment's.
func (c *Cache) lookup(name string) *functions.Overload {
	for _, o := range c.overrides {
		if o.Operator == name {
			return o
		}
	}
	return c.env.fns[name]
}

// isFunction reports whether name is a function a template can call.
func (c *Cache) isFunction(name string) bool {
	return c.env.env.HasFunction(name) || c.lookup(name) != nil
}

// compile returns the cached program for expr. declared reports whether an
// identifier names a variable in scope; it settles the map-literal key rule
// of LANGUAGE.md §3.
func (c *Cache) Compile(expr string, declared func(string) bool) (*Program, *Error) {
	c.mu.RLock()
	e := c.entries[expr]
	c.mu.RUnlock()
	if e == nil {
		if err := c.init(); err != nil {
			return nil, &Error{Msg: "the CEL environment could not be built: " + err.Error(), Offset: -1}
		}
		e = c.parse(expr)
		c.mu.Lock()
		if old := c.entries[expr]; old != nil {
			e = old
		} else {
			if len(c.entries) >= maxCacheEntries {
				c.entries = map[string]*cacheEntry{}
			}
			c.entries[expr] = e
		}
		c.mu.Unlock()
	}
	if e.err != nil {
		return nil, e.err
	}
	var mask uint64
	for i, cand := range e.cands {
		if i >= maxCandidates {
			break
		}
		if declared != nil && declared(cand.name) {
			mask |= 1 << uint(i)
		}
	}
	if len(e.cands) > maxCandidates {
		return c.build(e, declared)
	}
	if mask == 0 {
		if p := e.mask0.Load(); p != nil {
			return p, nil
		}
	} else {
		e.mu.Lock()
		p := e.progs[mask]
		e.mu.Unlock()
		if p != nil {
			return p, nil
		}
	}
	p, xerr := c.build(e, declared)
	if xerr != nil {
		return nil, xerr
	}
	if mask == 0 {
		if !e.mask0.CompareAndSwap(nil, p) {
			return e.mask0.Load(), nil
		}
		return p, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if old := e.progs[mask]; old != nil {
		return old, nil
	}
	if e.progs == nil {
		e.progs = map[uint64]*Program{}
	}
	e.progs[mask] = p
	return p, nil
}

// parse parses expr and finds its candidate map keys.
func (c *Cache) parse(expr string) *cacheEntry {
	e := &cacheEntry{expr: expr}
	if len(expr) > maxExprBytes {
		e.err = &Error{Msg: "the expression is longer than " + strconv.Itoa(maxExprBytes) + " bytes", Offset: -1}
		return e
	}
	if !utf8.ValidString(expr) {
		e.err = &Error{Msg: "the expression is not valid UTF-8", Offset: invalidUTF8Offset(expr)}
		return e
	}
	a, iss := c.env.env.Parse(expr)
	if iss != nil && iss.Err() != nil {
		e.err = parseError(expr, iss)
		return e
	}
	e.parsed = a.NativeRep()
	e.cands = keyCandidates(e.parsed.Expr(), c.isFunction)
	return e
}

func invalidUTF8Offset(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

func parseError(expr string, iss *cel.Issues) *Error {
	errs := iss.Errors()
	if len(errs) == 0 {
		return &Error{Msg: "invalid expression", Offset: -1}
	}
	first := errs[0]
	msg := first.Message
	off := -1
	if loc := first.Location; loc != nil && loc.Line() > 0 {
		off = lineColOffset(expr, loc.Line(), loc.Column())
	}
	if strings.Contains(msg, "recursion") || strings.Contains(msg, "code point") || strings.Contains(msg, "node count") {
		msg = "the expression is nested too deeply or is too large: " + msg
	} else if strings.HasPrefix(msg, "Syntax error") {
		msg = hint.PlainSyntax(msg) + hint.Syntax(expr)
	}
	return &Error{Msg: msg, Offset: off}
}

// lineColOffset turns a 1-based line and 0-based column in code points
// into a byte offset.
func lineColOffset(s string, line, col int) int {
	i := 0
	for l := 1; l < line; l++ {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return -1
		}
		i += j + 1
	}
	for ; col > 0 && i < len(s); col-- {
		if s[i] == '\n' {
			break
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	return i
}

// runeOffset turns an offset in code points into a byte offset.
func runeOffset(s string, cp int) int {
	if cp < 0 {
		return -1
	}
	i := 0
	for ; cp > 0 && i < len(s); cp-- {
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	if cp > 0 {
		return -1
	}
	return i
}

// keyCandidates finds the names the expression uses freely: bare map
// keys and identifiers that no enclosing comprehension (macros, cel.bind)
// binds.
// isFunc tells which namespaced names are functions: in `json.encode(x)`
// the identifier json is not a variable.
func keyCandidates(root celast.Expr, isFunc func(string) bool) []keyCandidate {
	var cands []keyCandidate
	var bound []string
	isBound := func(n string) bool {
		for _, b := range bound {
			if b == n {
				return true
			}
		}
		return false
	}
	cand := func(name string) *keyCandidate {
		for i := range cands {
			if cands[i].name == name {
				return &cands[i]
			}
		}
		cands = append(cands, keyCandidate{name: name})
		return &cands[len(cands)-1]
	}
	var walk func(e celast.Expr)
	walk = func(e celast.Expr) {
		if e == nil {
			return
		}
		switch e.Kind() {
		case celast.IdentKind:
			if name := e.AsIdent(); !isBound(name) {
				c := cand(name)
				c.identIDs = append(c.identIDs, e.ID())
			}
		case celast.CallKind:
			call := e.AsCall()
			if call.IsMemberFunction() {
				q, ok := qualifiedName(call.Target())
				if !ok || isFunc == nil || !isFunc(q+"."+call.FunctionName()) {
					walk(call.Target())
				}
			}
			for _, a := range call.Args() {
				walk(a)
			}
		case celast.ComprehensionKind:
			cp := e.AsComprehension()
			walk(cp.IterRange())
			walk(cp.AccuInit())
			n := len(bound)
			bound = append(bound, cp.IterVar(), cp.AccuVar())
			if cp.HasIterVar2() {
				bound = append(bound, cp.IterVar2())
			}
			walk(cp.LoopCondition())
			walk(cp.LoopStep())
			walk(cp.Result())
			bound = bound[:n]
		case celast.ListKind:
			for _, el := range e.AsList().Elements() {
				walk(el)
			}
		case celast.MapKind:
			for _, ent := range e.AsMap().Entries() {
				me := ent.AsMapEntry()
				k := me.Key()
				if k.Kind() == celast.IdentKind && !isBound(k.AsIdent()) {
					c := cand(k.AsIdent())
					c.keyIDs = append(c.keyIDs, k.ID())
				} else {
					walk(k)
				}
				walk(me.Value())
			}
		case celast.SelectKind:
			walk(e.AsSelect().Operand())
		case celast.StructKind:
			for _, f := range e.AsStruct().Fields() {
				walk(f.AsStructField().Value())
			}
		}
	}
	walk(root)
	return cands
}

// build plans a program for e in which every candidate key that names no
// declared variable is read as a string.
func (c *Cache) build(e *cacheEntry, declared func(string) bool) (*Program, *Error) {
	a := e.parsed
	var rewrite map[int64]string
	var refs map[int64]*celast.ReferenceInfo
	for _, cand := range e.cands {
		if declared != nil && declared(cand.name) {
			if len(cand.identIDs) > 0 && refs == nil {
				refs = map[int64]*celast.ReferenceInfo{}
			}
			for _, id := range cand.identIDs {
				refs[id] = celast.NewIdentReference(cand.name, nil)
			}
			continue
		}
		if len(cand.keyIDs) > 0 && rewrite == nil {
			rewrite = map[int64]string{}
		}
		for _, id := range cand.keyIDs {
			rewrite[id] = cand.name
		}
	}
	if rewrite != nil {
		a = celast.Copy(a)
		fac := celast.NewExprFactory()
		celast.PostOrderVisit(a.Expr(), celast.NewExprVisitor(func(x celast.Expr) {
			if x.Kind() != celast.MapKind {
				return
			}
			for _, ent := range x.AsMap().Entries() {
				k := ent.AsMapEntry().Key()
				if name, ok := rewrite[k.ID()]; ok && k.Kind() == celast.IdentKind {
					k.SetKindCase(fac.NewLiteral(k.ID(), types.String(name)))
				}
			}
		}))
	}
	if refs != nil {
		// Identifiers that name variables resolve directly, as in a
		// checked expression; nothing else is marked checked.
		a = celast.NewCheckedAST(a, map[int64]*types.Type{}, refs)
	}
	prg, err := c.env.env.PlanProgram(a, c.progOpts...)
	if err != nil {
		// A call without arguments to a function that does not exist,
		// such as now(), fails here, when the program is planned.
		p := &Program{ast: a, expr: e.expr, cache: c}
		if msg, off := p.unknownCall(); msg != "" {
			return nil, &Error{Msg: msg, Offset: off}
		}
		return nil, &Error{Msg: sanitizeMsg(err.Error()), Offset: -1}
	}
	loops := false
	celast.PreOrderVisit(a.Expr(), celast.NewExprVisitor(func(x celast.Expr) {
		if x.Kind() == celast.ComprehensionKind {
			loops = true
		}
	}))
	return &Program{prg: prg, ast: a, expr: e.expr, cache: c, loops: loops}, nil
}

// ---------------------------------------------------------------------------
// Evaluation

// eval runs p against act. budget is what is left of the render's cost
// budget; the cost used is subtracted from it.
func (p *Program) Eval(ctx context.Context, act interpreter.Activation, budget *uint64) (ref.Val, *Error) {
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return nil, cancelledError(err)
		}
	}
	st := evalStatePool.Get().(*evalState)
	st.Activation, st.cost, st.limit = act, 0, p.cache.costLimit
	if budget != nil && *budget < st.limit {
		// Stop as soon as the render's budget is spent, too.
		st.limit = *budget
	}
	var (
		out ref.Val
		err error
	)
	if !p.loops || ctx == nil || ctx.Done() == nil {
		out, _, err = p.prg.Eval(st)
	} else {
		out, _, err = p.prg.ContextEval(ctx, st)
	}
	cost, limited := st.cost, st.limit
	st.Activation = nil
	evalStatePool.Put(st)

	limitHit := err != nil && isCostLimit(err)
	if budget != nil {
		if cost > *budget || (limitHit && limited < p.cache.costLimit) {
			*budget = 0
			return nil, &Error{
				Msg:    "the render's CEL cost budget is used up (MaxCostPerRender); it can be raised through the engine option MaxCostPerRender",
				Offset: -1, Limit: "MaxCostPerRender",
			}
		}
		*budget -= cost
	}
	if err == nil && out != nil && !types.IsError(out) {
		return out, nil
	}
	if ctx != nil && ctx.Err() != nil {
		return nil, cancelledError(ctx.Err())
	}
	if limitHit {
		return nil, &Error{
			Msg: "the expression costs more than MaxCostPerExpression (" + strconv.FormatUint(p.cache.costLimit, 10) +
				"); it can be raised through the engine option MaxCostPerExpression",
			Offset: -1, Limit: "MaxCostPerExpression",
		}
	}
	var celErr *types.Err
	if e, ok := out.(*types.Err); ok {
		celErr = e
	} else if !errors.As(err, &celErr) {
		celErr = nil
	}
	off := -1
	var id int64
	if celErr != nil {
		id = celErr.NodeID()
		off = p.offsetOf(id)
	}
	msg := "evaluation failed"
	switch {
	case celErr != nil:
		msg = sanitizeMsg(celErr.Error())
	case err != nil:
		msg = sanitizeMsg(err.Error())
	}
	if name, ok := strings.CutPrefix(msg, "no such attribute(s): "); ok {
		if better, at := p.misspeltCall(name); better != "" {
			return nil, &Error{Msg: better, Offset: at}
		}
	}
	switch {
	case id == 0:
	case msg == "no such key":
		msg += p.missingKeyHint(act, id)
	case msg == "index out of range":
		msg += p.negativeIndexHint(id)
	case strings.HasPrefix(msg, "unsupported index type 'string' in list"):
		if f, ok := p.selectedField(id); ok {
			msg = "a list has no field '" + f + "'" + hint.Size(f)
		}
	}
	if id != 0 {
		unknown, better := p.inspectCall(act, id, msg)
		if unknown {
			return celUnknown, nil
		}
		if better != "" {
			msg = better
		}
	}
	return nil, &Error{Msg: msg, Offset: off}
}

// evalState is the activation a program runs against: the caller's scope
// plus the cost counted so far. Call nodes find it by walking up from the
// frame they run in.
type evalState struct {
	interpreter.Activation
	cost  uint64
	limit uint64
}

// Parent implements interpreter.Activation: the scope resolves every name
// itself.
func (s *evalState) Parent() interpreter.Activation { return nil }

var evalStatePool = sync.Pool{New: func() any { return new(evalState) }}

// stateOf finds the evalState of the evaluation that frame belongs to.
func stateOf(frame *interpreter.ExecutionFrame) *evalState {
	if frame == nil {
		return nil
	}
	for a := frame.Activation; a != nil; a = a.Parent() {
		switch x := a.(type) {
		case *evalState:
			return x
		case *interpreter.ExecutionFrame:
			a = x.Activation
			if s, ok := a.(*evalState); ok {
				return s
			}
		}
	}
	return nil
}

// charge adds cost to the evaluation and stops it when the limit is passed.
func (s *evalState) charge(cost uint64) {
	s.cost += cost
	if s.cost < cost {
		s.cost = ^uint64(0)
	}
	if s.limit > 0 && s.cost > s.limit {
		panic(interpreter.EvalCancelledError{Cause: interpreter.CostLimitExceeded, Message: "operation cancelled: actual cost limit exceeded"})
	}
}

func isCostLimit(err error) bool {
	var cancelled interpreter.EvalCancelledError
	return errors.As(err, &cancelled) && cancelled.Cause == interpreter.CostLimitExceeded
}

func cancelledError(err error) *Error {
	return &Error{Msg: "rendering cancelled: " + err.Error(), Offset: -1}
}

// offsetOf gives the byte offset in the expression of node id.
func (p *Program) offsetOf(id int64) int {
	if id == 0 {
		return -1
	}
	r, ok := p.ast.SourceInfo().GetOffsetRange(id)
	if !ok {
		return -1
	}
	return runeOffset(p.expr, int(r.Start))
}

// inspectCall looks at the failing call node id once more, re-running the
// expression with state tracking (this happens only on errors):
//
//   - If an argument holds an unknown value somewhere inside, such as
//     `names.join(',')` when one of the names is not known yet, the call
//     failed only because the value is not known: unknown is true.
//   - If the call found no matching overload, msg names the argument types,
//     e.g. "no matching overload for int + double". Types are safe to show;
//     values never are.
func (p *Program) inspectCall(act interpreter.Activation, id int64, msg string) (unknown bool, better string) {
	call := p.node(id)
	if call == nil || call.Kind() != celast.CallKind {
		return false, ""
	}
	c := call.AsCall()
	fn := c.FunctionName()
	member := c.IsMemberFunction()
	known := p.cache.isFunction
	if member {
		// `a.b.f(x)` may call the namespaced function a.b.f.
		if q, ok := qualifiedName(c.Target()); ok && known(q+"."+fn) {
			fn, member = q+"."+fn, false
		}
	}
	if strings.HasPrefix(msg, "no such overload") && !known(fn) {
		better = unknownFunctionMsg(fn, p.cache.env.functionHint(fn))
	}
	st := p.trace(act)
	if st == nil {
		return false, better
	}
	args := c.Args()
	if member {
		args = append([]celast.Expr{c.Target()}, args...)
	}
	typeNames := make([]string, 0, len(args))
	for _, a := range args {
		v, ok := st.Value(a.ID())
		if !ok || v == nil {
			typeNames = append(typeNames, "?")
			continue
		}
		budget := maxConvertNodes
		if holdsUnknown(v, &budget) {
			return true, ""
		}
		typeNames = append(typeNames, celTypeNameOf(v))
	}
	if better == "" && strings.HasPrefix(msg, "no such overload") {
		better = "no matching overload for " + callSignature(fn, member, typeNames) + hint.Overload(fn, typeNames)
	}
	return false, better
}

// trace re-runs the program with state tracking, for a closer look at a
// failure: the value of every node it reached. It is nil if the program
// cannot be traced.
func (p *Program) trace(act interpreter.Activation) interpreter.EvalState {
	p.traceOnce.Do(func() {
		opts := append([]cel.ProgramOption{cel.EvalOptions(cel.OptTrackState)}, p.cache.progOpts...)
		p.traced, _ = p.cache.env.env.PlanProgram(p.ast, opts...)
	})
	if p.traced == nil {
		return nil
	}
	_, det, _ := p.traced.Eval(&evalState{Activation: act, limit: p.cache.costLimit})
	if det == nil {
		return nil
	}
	return det.State()
}

// celTypeNameOf is the CEL type name of v, for messages.
func celTypeNameOf(v ref.Val) string {
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

var operatorSymbols = map[string]string{
	"_+_": "+", "_-_": "-", "_*_": "*", "_/_": "/", "_%_": "%",
	"_<_": "<", "_<=_": "<=", "_>_": ">", "_>=_": ">=", "_==_": "==", "_!=_": "!=",
	"@in": "in", "_[_]": "[]", "_&&_": "&&", "_||_": "||",
}

// callSignature shows a call by its argument types: `int + double`,
// `size(bool)`, `string.join(int)`.
func callSignature(fn string, member bool, typeNames []string) string {
	if sym, ok := operatorSymbols[fn]; ok && len(typeNames) == 2 {
		if sym == "[]" {
			return typeNames[0] + "[" + typeNames[1] + "]"
		}
		return typeNames[0] + " " + sym + " " + typeNames[1]
	}
	switch fn {
	case "_?_:_":
		// The branches are never reached when the condition fails.
		if len(typeNames) == 3 {
			return typeNames[0] + " ? … : …"
		}
	case "!_":
		if len(typeNames) == 1 {
			return "!" + typeNames[0]
		}
	case "-_":
		if len(typeNames) == 1 {
			return "-" + typeNames[0]
		}
	}
	if member && len(typeNames) > 0 {
		return typeNames[0] + "." + fn + "(" + strings.Join(typeNames[1:], ", ") + ")"
	}
	return fn + "(" + strings.Join(typeNames, ", ") + ")"
}

// qualifiedName spells a chain of selects on an identifier, e.g. `a.b`.
func qualifiedName(e celast.Expr) (string, bool) {
	switch e.Kind() {
	case celast.IdentKind:
		return e.AsIdent(), true
	case celast.SelectKind:
		s := e.AsSelect()
		if q, ok := qualifiedName(s.Operand()); ok {
			return q + "." + s.FieldName(), true
		}
	}
	return "", false
}

// holdsUnknown reports whether v is or holds an unknown value.
func holdsUnknown(v ref.Val, budget *int) bool {
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
			if holdsUnknown(it.Next(), budget) {
				return true
			}
		}
	case traits.Mapper:
		for it := v.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			if el, ok := v.Find(k); ok && holdsUnknown(el, budget) {
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

// ---------------------------------------------------------------------------
// Costs

// callCost prices a function call at run time. Programs are not
// type-checked, so calls carry no overload id and cel-go's per-overload
// prices do not apply. Calls are priced by function name and by the values
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
		cost = max(cost, deepSize(result, maxConvertNodes))
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
	}
	return 0, false
}

// ---------------------------------------------------------------------------
// Guards against huge results

// guardedFunctions can build a result far larger than their arguments in
// one call, before the cost of that result is counted. The program cache
// overrides them with versions that first work out how large the result
// would be and refuse to build one that the cost limit could not pay for.
var guardedFunctions = []string{"replace", "regex.replace", "join", "format", "flatten"}

// guardLimit is the largest result, in bytes, that a guarded call may
// build: what the cost limit pays for at a tenth of a unit per byte,
// capped at maxHelperOutput.
func guardLimit(costLimit uint64) int {
	if costLimit == 0 || costLimit > maxHelperOutput/10 {
		return maxHelperOutput
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
	if re, ok := regexCache.Load(pattern); ok {
		return re.(*regexp.Regexp), nil
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
			return int(min(n, types.Int(maxHelperOutput)))
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

// ---------------------------------------------------------------------------
// Deterministic map literals

func sortMap(v ref.Val) ref.Val {
	m, ok := v.(traits.Mapper)
	if !ok {
		return v
	}
	return &sortedMap{Mapper: m, keys: SortedKeys(m)}
}

// SortedKeys returns a map's keys in the order CEL map values are walked
// everywhere in the engine (SortKeys): bools, then numbers, then strings.
func SortedKeys(m traits.Mapper) []ref.Val {
	n, _ := m.Size().(types.Int)
	keys := make([]ref.Val, 0, int(n))
	for it := m.Iterator(); it.HasNext() == types.True; {
		keys = append(keys, it.Next())
	}
	SortKeys(keys)
	return keys
}

// SortKeys orders map keys: bools, then numbers by value, then strings.
func SortKeys(keys []ref.Val) {
	rank := func(v ref.Val) int {
		switch v.(type) {
		case types.Bool:
			return 0
		case types.Int, types.Uint, types.Double:
			return 1
		case types.String:
			return 2
		}
		return 3
	}
	less := func(a, b ref.Val) bool {
		ra, rb := rank(a), rank(b)
		if ra != rb {
			return ra < rb
		}
		switch a := a.(type) {
		case types.Bool:
			return !bool(a) && bool(b.(types.Bool))
		case types.String:
			return a < b.(types.String)
		}
		if c, ok := a.(traits.Comparer); ok {
			return c.Compare(b) == types.IntNegOne
		}
		return false
	}
	sort.SliceStable(keys, func(i, j int) bool { return less(keys[i], keys[j]) })
}

// sortedMap is a cel-go map that iterates its keys in sorted order.
type sortedMap struct {
	traits.Mapper
	keys []ref.Val
}

func (m *sortedMap) Iterator() traits.Iterator { return &refIterator{vals: m.keys} }

func (m *sortedMap) Fold(f traits.Folder) {
	for _, k := range m.keys {
		v, _ := m.Find(k)
		if !f.FoldEntry(k, v) {
			return
		}
	}
}

func (m *sortedMap) ConvertToType(t ref.Type) ref.Val {
	if t == types.MapType {
		return m
	}
	return m.Mapper.ConvertToType(t)
}

type refIterator struct {
	iterBase
	vals []ref.Val
	i    int
}

func (it *refIterator) HasNext() ref.Val { return types.Bool(it.i < len(it.vals)) }
func (it *refIterator) Next() ref.Val {
	if it.i >= len(it.vals) {
		return nil
	}
	v := it.vals[it.i]
	it.i++
	return v
}

// ---------------------------------------------------------------------------
// Messages

// sanitizeMsg removes from a CEL error message anything that may come from
// a variable's value: map keys, indexes, quoted input and regex patterns.
// Type names and the names written in the template stay.
func sanitizeMsg(msg string) string {
	switch {
	case strings.HasPrefix(msg, "internal error"):
		return "internal error while evaluating the expression"
	case strings.Contains(msg, "no such key"):
		return "no such key"
	case strings.Contains(msg, "index") && (strings.Contains(msg, "out of range") || strings.Contains(msg, "out of bounds")):
		return "index out of range"
	case strings.HasPrefix(msg, "lists.range: size"):
		if i := strings.Index(msg, "exceeds"); i >= 0 {
			return "lists.range: the size " + msg[i:]
		}
	case strings.Contains(msg, "error parsing regexp: "):
		i := strings.Index(msg, "error parsing regexp: ")
		rest := msg[i+len("error parsing regexp: "):]
		if j := strings.Index(rest, ": `"); j >= 0 {
			rest = rest[:j]
		}
		return "invalid regular expression: " + rest
	case strings.HasPrefix(msg, "join: invalid input"):
		return "join: the list holds a value that is not a string"
	case strings.HasPrefix(msg, "invalid substring range"):
		return "invalid substring range"
	case strings.HasPrefix(msg, "insert failed: key"):
		return "the map would hold the same key twice"
	}
	return scrubQuoted(msg)
}

// scrubQuoted drops quoted text from msg, keeping quoted type names.
// Quoted text may be a value, and a value may hold quotes itself, so a
// segment ends only at a quote followed by a space, punctuation or the end,
// and "..." segments are read as Go quoted strings. If any quote is left
// unpaired, everything from the first quote to the last one goes.
func scrubQuoted(msg string) string {
	if out, ok := scrubSegments(msg); ok {
		return out
	}
	first := strings.IndexAny(msg, "'\"`")
	last := strings.LastIndexAny(msg, "'\"`")
	if first < 0 {
		return msg
	}
	if last == first {
		return msg[:first] + "…" // nothing closes it: drop the rest
	}
	return msg[:first] + "…" + msg[last+1:]
}

func scrubSegments(msg string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(msg); {
		c := msg[i]
		if c != '\'' && c != '"' && c != '`' {
			b.WriteByte(c)
			i++
			continue
		}
		if c == '\'' && i > 0 && i+1 < len(msg) && isLetter(msg[i-1]) && isLetter(msg[i+1]) {
			b.WriteByte(c) // an apostrophe, as in "can't"
			i++
			continue
		}
		if i > 0 && !strings.ContainsRune(" ([{:=,\n", rune(msg[i-1])) {
			return "", false
		}
		end := -1
		if c == '"' {
			if q, err := strconv.QuotedPrefix(msg[i:]); err == nil && closesSegment(msg, i+len(q)) {
				end = i + len(q)
			}
		} else {
			for j := i + 1; j < len(msg); j++ {
				if msg[j] == c && closesSegment(msg, j+1) {
					end = j + 1
					break
				}
			}
		}
		if end < 0 {
			return "", false
		}
		if inner := msg[i+1 : end-1]; c == '\'' && isTypeName(inner) {
			b.WriteString(msg[i:end])
		} else {
			b.WriteString("…")
		}
		i = end
	}
	return b.String(), true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// closesSegment reports whether a quoted segment may end just before i.
func closesSegment(msg string, i int) bool {
	return i >= len(msg) || strings.ContainsRune(" :,;)]}.!?\n", rune(msg[i]))
}

func isTypeName(s string) bool {
	switch s {
	case "int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type", "type",
		"timestamp", "duration", "optional_type", "dyn", "Quantity", "URL", "IP", "CIDR", "Semver", "Format":
		return true
	}
	return strings.HasPrefix(s, "google.protobuf.") || strings.HasPrefix(s, "kubernetes.") ||
		strings.HasPrefix(s, "list(") || strings.HasPrefix(s, "map(") || strings.HasPrefix(s, "optional_type(")
}

// ---------------------------------------------------------------------------
// Planning: cost accounting and deterministic map literals

// decorate wraps the planned nodes of a program. Calls are replaced by
// costCall, which runs them as cel-go would and prices them (cel-go's own
// cost tracker is not used: it slows comprehensions down quadratically).
// value.Map literals iterate in sorted key order: cel-go keeps them in Go maps,
// whose order changes from run to run, and `{'b': 1, 'a': 2}.map(k, k)`
// must give the same list every time.
func (c *Cache) decorate(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	switch x := i.(type) {
	case interpreter.InterpretableCall:
		return c.wrapCall(x), nil
	case interpreter.InterpretableConstructor:
		return &costCtor{InterpretableConstructor: x, sortMap: x.Type() == types.MapType}, nil
	}
	return i, nil
}

// Call forms, as cel-go's planner chooses them.
const (
	formZero = iota
	formUnary
	formBinary
	formVarArgs
	formEq
	formNe
)

func (c *Cache) wrapCall(call interpreter.InterpretableCall) interpreter.InterpretableV2 {
	w := &costCall{InterpretableCall: call, id: call.ID(), fn: call.Function(), overload: call.OverloadID(), args: call.Args()}
	w.deep = deepFunctions[w.fn]
	switch {
	case w.fn == "_==_" && w.overload == "equals":
		w.form = formEq
		return w
	case w.fn == "_!=_" && w.overload == "not_equals":
		w.form = formNe
		return w
	}
	impl := c.lookup(w.fn)
	if impl != nil && impl.Async != nil {
		return call
	}
	switch len(w.args) {
	case 0:
		if impl == nil || impl.Function == nil {
			return call
		}
		w.form, w.fnOp = formZero, impl.Function
	case 1:
		if impl != nil && impl.Unary == nil && impl.Function != nil {
			w.form, w.fnOp = formVarArgs, impl.Function
		} else {
			w.form = formUnary
			if impl != nil {
				w.unary = impl.Unary
			}
		}
	case 2:
		if impl != nil && impl.Binary == nil && impl.Function != nil {
			w.form, w.fnOp = formVarArgs, impl.Function
		} else {
			w.form = formBinary
			if impl != nil {
				w.binary = impl.Binary
			}
		}
	default:
		w.form = formVarArgs
		if impl != nil {
			w.fnOp = impl.Function
		}
	}
	if impl != nil {
		w.trait, w.nonStrict = impl.OperandTrait, impl.NonStrict
	}
	return w
}

// costCall evaluates a call exactly as cel-go's evalZeroArity, evalUnary,
// evalBinary, evalVarArgs, evalEq and evalNe do, then prices it.
type costCall struct {
	interpreter.InterpretableCall
	id        int64
	fn        string
	overload  string
	args      []interpreter.InterpretableV2
	form      int
	unary     functions.UnaryOp
	binary    functions.BinaryOp
	fnOp      functions.FunctionOp
	trait     int
	nonStrict bool
	deep      bool // priced before it runs: see precharge
}

func (w *costCall) Eval(a interpreter.Activation) ref.Val { return w.Exec(interpreter.AsFrame(a)) }

func (w *costCall) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	var pair [2]ref.Val
	var res ref.Val
	var vals []ref.Val
	st := stateOf(frame)
	switch w.form {
	case formEq, formNe, formUnary, formBinary:
		var n int
		res, n = w.execFixed(frame, st, &pair)
		vals = pair[:n]
	case formZero:
		res = labelErr(w.id, w.fnOp())
	default:
		res, vals = w.execVarArgs(frame, st)
	}
	if st != nil {
		st.charge(callCost(w.fn, vals, res))
	}
	return res
}

// precharge prices, before the call runs, the functions whose work can
// grow faster than their arguments: deep equality, membership, set
// operations and distinct. Charging after the call would come too late
// for a list that holds the same list many times over.
func (w *costCall) precharge(st *evalState, args ...ref.Val) {
	if st == nil || !w.deep {
		return
	}
	left := uint64(maxConvertNodes)
	if st.limit > 0 {
		left = st.limit - min(st.cost, st.limit)
	}
	st.charge(preCost(w.fn, args, left))
}

// execFixed runs the one- and two-argument forms; it reports how many
// argument values it stored in vals.
func (w *costCall) execFixed(frame *interpreter.ExecutionFrame, st *evalState, vals *[2]ref.Val) (ref.Val, int) {
	strict := !w.nonStrict
	switch w.form {
	case formEq, formNe:
		l := w.args[0].Exec(frame)
		if types.IsError(l) {
			return l, 0
		}
		r := w.args[1].Exec(frame)
		if types.IsError(r) {
			return r, 0
		}
		vals[0], vals[1] = l, r
		var unk *types.Unknown
		unk, _ = types.MaybeMergeUnknowns(l, unk)
		unk, _ = types.MaybeMergeUnknowns(r, unk)
		if unk != nil {
			return unk, 2
		}
		w.precharge(st, l, r)
		eq := types.Equal(l, r)
		if w.form == formEq {
			return eq, 2
		}
		if eq == types.True {
			return types.False, 2
		}
		return types.True, 2
	case formUnary:
		v := w.args[0].Exec(frame)
		vals[0] = v
		if strict && types.IsUnknownOrError(v) {
			return v, 1
		}
		if w.unary != nil && (w.trait == 0 || (!strict && types.IsUnknownOrError(v)) || v.Type().HasTrait(w.trait)) {
			w.precharge(st, v)
			return labelErr(w.id, w.unary(v)), 1
		}
		if v.Type().HasTrait(traits.ReceiverType) {
			return labelErr(w.id, v.(traits.Receiver).Receive(w.fn, w.overload, []ref.Val{})), 1
		}
		return types.NewErrWithNodeID(w.id, "no such overload: %s", w.fn), 1
	}
	l := w.args[0].Exec(frame)
	if strict && types.IsError(l) {
		return l, 0
	}
	r := w.args[1].Exec(frame)
	if strict && types.IsError(r) {
		return r, 0
	}
	vals[0], vals[1] = l, r
	if strict {
		var unk *types.Unknown
		unk, _ = types.MaybeMergeUnknowns(l, unk)
		unk, _ = types.MaybeMergeUnknowns(r, unk)
		if unk != nil {
			return unk, 2
		}
	}
	if w.binary != nil && (w.trait == 0 || (!strict && types.IsUnknownOrError(l)) || l.Type().HasTrait(w.trait)) {
		w.precharge(st, l, r)
		return labelErr(w.id, w.binary(l, r)), 2
	}
	if l.Type().HasTrait(traits.ReceiverType) {
		return labelErr(w.id, l.(traits.Receiver).Receive(w.fn, w.overload, []ref.Val{r})), 2
	}
	return types.NewErrWithNodeID(w.id, "no such overload: %s", w.fn), 2
}

// execVarArgs runs the general form; cel-go's evalVarArgs allocates the
// argument slice the same way.
func (w *costCall) execVarArgs(frame *interpreter.ExecutionFrame, st *evalState) (ref.Val, []ref.Val) {
	strict := !w.nonStrict
	argVals := make([]ref.Val, len(w.args))
	var unk *types.Unknown
	for i, a := range w.args {
		v := a.Exec(frame)
		argVals[i] = v
		if strict {
			if types.IsError(v) {
				return v, argVals[:i+1]
			}
			unk, _ = types.MaybeMergeUnknowns(v, unk)
		}
	}
	if strict && unk != nil {
		return unk, argVals
	}
	arg0 := argVals[0]
	if w.fnOp != nil && (w.trait == 0 || (!strict && types.IsUnknownOrError(arg0)) || arg0.Type().HasTrait(w.trait)) {
		w.precharge(st, argVals...)
		return labelErr(w.id, w.fnOp(argVals...)), argVals
	}
	if arg0.Type().HasTrait(traits.ReceiverType) {
		return labelErr(w.id, arg0.(traits.Receiver).Receive(w.fn, w.overload, argVals[1:])), argVals
	}
	return types.NewErrWithNodeID(w.id, "no such overload: %s", w.fn), argVals
}

// deepFunctions are priced before they run (see precharge).
var deepFunctions = map[string]bool{
	"_==_": true, "_!=_": true, "@in": true, "indexOf": true, "lastIndexOf": true, "includes": true,
	"sets.contains": true, "sets.equivalent": true, "sets.intersects": true, "distinct": true,
}

// preCost is what a deep function will cost at most, computed without
// walking past limit.
func preCost(fn string, args []ref.Val, limit uint64) uint64 {
	switch fn {
	case "_==_", "_!=_":
		if len(args) == 2 && isAggregate(args[0]) && isAggregate(args[1]) {
			return min(deepSize(args[0], limit), deepSize(args[1], limit))
		}
	case "@in", "indexOf", "lastIndexOf", "includes":
		if len(args) == 2 {
			list, elem := args[1], args[0]
			if fn != "@in" {
				list, elem = args[0], args[1]
			}
			if _, ok := list.(traits.Lister); ok && isAggregate(elem) {
				return satMul(sizeOf(list), deepSize(elem, limit))
			}
		}
	case "sets.contains", "sets.equivalent", "sets.intersects":
		if len(args) == 2 {
			return tenth(satMul(sizeOf(args[0]), sizeOf(args[1]))) + deepSize(args[0], limit) + deepSize(args[1], limit)
		}
	case "distinct":
		if len(args) == 1 {
			n := sizeOf(args[0])
			return tenth(satMul(n, n)/2) + deepSize(args[0], limit)
		}
	}
	return 0
}

func isAggregate(v ref.Val) bool {
	switch v.(type) {
	case traits.Lister, traits.Mapper:
		return true
	}
	return false
}

// deepSize counts the nodes of v, lists and maps inside counted as often
// as they occur, stopping once the count passes limit.
func deepSize(v ref.Val, limit uint64) uint64 {
	var n uint64
	var walk func(v ref.Val)
	walk = func(v ref.Val) {
		n++
		if n > limit {
			return
		}
		switch x := v.(type) {
		case traits.Lister:
			for it := x.Iterator(); it.HasNext() == types.True && n <= limit; {
				walk(it.Next())
			}
		case traits.Mapper:
			for it := x.Iterator(); it.HasNext() == types.True && n <= limit; {
				k := it.Next()
				if el, ok := x.Find(k); ok {
					walk(el)
				}
			}
		}
	}
	walk(v)
	return n
}

func satMul(a, b uint64) uint64 {
	if a != 0 && b > ^uint64(0)/a {
		return ^uint64(0)
	}
	return a * b
}

// labelErr attaches the call's node id to an error result. cel-go hands
// out some errors as shared values ("no such overload", "integer
// overflow"), and labelling those in place would give every later error
// the first one's position (and race between goroutines): they are copied.
func labelErr(id int64, v ref.Val) ref.Val {
	e, ok := v.(*types.Err)
	if !ok {
		return v
	}
	if e.NodeID() != 0 && !sharedErr(e) {
		return v
	}
	return types.NewErrWithNodeID(id, "%w", e.Unwrap())
}

func sharedErr(e *types.Err) bool {
	if e == types.NoSuchOverloadErr() {
		return true
	}
	switch e.Error() {
	case "no such overload", "integer overflow", "timestamp overflow":
		return true
	}
	return false
}

// costCtor prices list and map literals and makes map literals iterate in
// sorted key order.
type costCtor struct {
	interpreter.InterpretableConstructor
	sortMap bool
}

func (c *costCtor) Eval(a interpreter.Activation) ref.Val { return c.Exec(interpreter.AsFrame(a)) }

func (c *costCtor) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	v := c.InterpretableConstructor.Exec(frame)
	if st := stateOf(frame); st != nil {
		st.charge(1 + tenth(sizeOf(v)))
	}
	if c.sortMap {
		return sortMap(v)
	}
	return v
}
