package celenv

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv/celval"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/types"
)

// The program cache: parsing, the map-literal key rule and building programs, once per distinct expression.

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

	// names are the names the expression uses freely; the checker
	// declares them when it types an unknown result (resultType).
	names    []keyCandidate
	path     []readStep // the steps of a name, field or constant index chain, for pathType
	typeOnce sync.Once
	outType  value.Type
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
			//nolint:staticcheck // cel.Function declares functions in an Env; overriding the implementations of functions already declared, per program, has only this option
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
// of reference §3.
func (c *Cache) Compile(expr string, declared func(string) bool) (*Program, *Error) {
	e, xerr := c.entry(expr)
	if xerr != nil {
		return nil, xerr
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

// entry is the cache entry of expr, parsed on first use.
func (c *Cache) entry(expr string) (*cacheEntry, *Error) {
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
	return e, e.err
}

// FreeName is a variable an expression reads: a name no comprehension in
// it binds, that is not a map-literal key, a namespace of a function or a
// type. Offset is the byte offset of its first use.
type FreeName struct {
	Name   string
	Offset int
}

// FreeNames parses expr (through the cache) and returns the variables it
// reads, for `celyaml check` to compare with the names in scope.
func (c *Cache) FreeNames(expr string) ([]FreeName, *Error) {
	e, xerr := c.entry(expr)
	if xerr != nil {
		return nil, xerr
	}
	var out []FreeName
	for _, cand := range e.cands {
		if len(cand.identIDs) == 0 {
			continue
		}
		if _, isType := c.env.env.CELTypeProvider().FindIdent(cand.name); isType {
			continue
		}
		off := -1
		if loc := e.parsed.SourceInfo().GetStartLocation(cand.identIDs[0]); loc.Line() > 0 {
			off = lineColOffset(expr, loc.Line(), loc.Column())
		}
		out = append(out, FreeName{Name: cand.name, Offset: off})
	}
	return out, nil
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
	w := keyWalker{isFunc: isFunc}
	w.walk(root)
	return w.cands
}

// keyWalker walks an expression for keyCandidates, with the names bound
// by the comprehensions it is inside.
type keyWalker struct {
	isFunc func(string) bool
	cands  []keyCandidate
	bound  []string
}

func (w *keyWalker) isBound(n string) bool {
	return slices.Contains(w.bound, n)
}

// cand gives the candidate of name, added if new.
func (w *keyWalker) cand(name string) *keyCandidate {
	for i := range w.cands {
		if w.cands[i].name == name {
			return &w.cands[i]
		}
	}
	w.cands = append(w.cands, keyCandidate{name: name})
	return &w.cands[len(w.cands)-1]
}

func (w *keyWalker) walk(e celast.Expr) {
	if e == nil {
		return
	}
	switch e.Kind() {
	case celast.IdentKind:
		if name := e.AsIdent(); !w.isBound(name) {
			c := w.cand(name)
			c.identIDs = append(c.identIDs, e.ID())
		}
	case celast.CallKind:
		w.call(e.AsCall())
	case celast.ComprehensionKind:
		w.comprehension(e.AsComprehension())
	case celast.ListKind:
		for _, el := range e.AsList().Elements() {
			w.walk(el)
		}
	case celast.MapKind:
		w.mapLiteral(e.AsMap())
	case celast.SelectKind:
		w.walk(e.AsSelect().Operand())
	case celast.StructKind:
		for _, f := range e.AsStruct().Fields() {
			w.walk(f.AsStructField().Value())
		}
	}
}

// call walks a call; the target of a namespaced function (json in
// json.encode) is not a name the expression uses.
func (w *keyWalker) call(call celast.CallExpr) {
	if call.IsMemberFunction() {
		q, ok := qualifiedName(call.Target())
		if !ok || w.isFunc == nil || !w.isFunc(q+"."+call.FunctionName()) {
			w.walk(call.Target())
		}
	}
	for _, a := range call.Args() {
		w.walk(a)
	}
}

// comprehension walks a comprehension with its variables bound.
func (w *keyWalker) comprehension(cp celast.ComprehensionExpr) {
	w.walk(cp.IterRange())
	w.walk(cp.AccuInit())
	n := len(w.bound)
	w.bound = append(w.bound, cp.IterVar(), cp.AccuVar())
	if cp.HasIterVar2() {
		w.bound = append(w.bound, cp.IterVar2())
	}
	w.walk(cp.LoopCondition())
	w.walk(cp.LoopStep())
	w.walk(cp.Result())
	w.bound = w.bound[:n]
}

// mapLiteral walks a map literal: a bare identifier key is a candidate key.
func (w *keyWalker) mapLiteral(m celast.MapExpr) {
	for _, ent := range m.Entries() {
		me := ent.AsMapEntry()
		k := me.Key()
		if k.Kind() == celast.IdentKind && !w.isBound(k.AsIdent()) {
			c := w.cand(k.AsIdent())
			c.keyIDs = append(c.keyIDs, k.ID())
		} else {
			w.walk(k)
		}
		w.walk(me.Value())
	}
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
		return nil, &Error{Msg: celval.Sanitize(err.Error()), Offset: -1}
	}
	loops := false
	celast.PreOrderVisit(a.Expr(), celast.NewExprVisitor(func(x celast.Expr) {
		if x.Kind() == celast.ComprehensionKind {
			loops = true
		}
	}))
	return &Program{prg: prg, ast: a, expr: e.expr, cache: c, loops: loops, names: e.cands, path: readPath(a.Expr())}, nil
}
