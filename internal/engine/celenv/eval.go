package celenv

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv/celval"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// Evaluation: running a program against an activation within the cost budget, and turning its failures into positioned errors.

// Eval runs p against act. budget is what is left of the render's cost
// budget; the cost used is subtracted from it.
func (p *Program) Eval(ctx context.Context, act interpreter.Activation, budget *uint64) (ref.Val, *Error) {
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return nil, cancelledError(err)
		}
	}
	limit := p.cache.costLimit
	if budget != nil && *budget < limit {
		// Stop as soon as the render's budget is spent, too.
		limit = *budget
	}
	r := p.run(ctx, act, limit)
	limitHit := r.err != nil && isCostLimit(r.err)
	if budget != nil {
		if r.cost > *budget || (limitHit && limit < p.cache.costLimit) {
			*budget = 0
			return nil, &Error{
				Msg:    "the render's CEL cost budget is used up (MaxCostPerRender)" + hint.RaiseLimit("MaxCostPerRender"),
				Offset: -1, Limit: "MaxCostPerRender",
			}
		}
		*budget -= r.cost
	}
	if r.err == nil && r.out != nil && !types.IsError(r.out) {
		if _, unknown := r.out.(*types.Unknown); unknown {
			return p.typedUnknown(act), nil
		}
		return r.out, nil
	}
	if ctx != nil && ctx.Err() != nil {
		return nil, cancelledError(ctx.Err())
	}
	if limitHit {
		return nil, &Error{
			Msg: "the expression costs more than MaxCostPerExpression (" + strconv.FormatUint(p.cache.costLimit, 10) +
				")" + hint.RaiseLimit("MaxCostPerExpression"),
			Offset: -1, Limit: "MaxCostPerExpression",
		}
	}
	return p.failure(act, r)
}

// runResult is what one run of a program gave, and what it cost.
type runResult struct {
	out  ref.Val
	err  error
	cost uint64
}

// run evaluates the program once with a pooled evalState, stopping past
// limit.
func (p *Program) run(ctx context.Context, act interpreter.Activation, limit uint64) runResult {
	st, _ := evalStatePool.Get().(*evalState)
	if st == nil {
		st = new(evalState)
	}
	st.Activation, st.cost, st.limit = act, 0, limit
	var r runResult
	if !p.loops || ctx == nil || ctx.Done() == nil {
		r.out, _, r.err = p.prg.Eval(st)
	} else {
		r.out, _, r.err = p.prg.ContextEval(ctx, st)
	}
	r.cost = st.cost
	st.Activation = nil
	evalStatePool.Put(st)
	return r
}

// failure turns a failed run into an Error: CEL's message, sanitised,
// positioned at the failing node, with a hint where one fits. A call that
// failed only because it read an unknown value gives the unknown instead.
func (p *Program) failure(act interpreter.Activation, r runResult) (ref.Val, *Error) {
	var celErr *types.Err
	if e, ok := r.out.(*types.Err); ok {
		celErr = e
	} else if !errors.As(r.err, &celErr) {
		celErr = nil
	}
	off := -1
	var id int64
	msg := "evaluation failed"
	switch {
	case celErr != nil:
		id = celErr.NodeID()
		msg = p.sanitizeAt(id, celErr.Error())
		if msg == "no such key" {
			id = p.firstMissing(act, id)
		}
		off = p.offsetOf(id)
	case r.err != nil:
		msg = celval.Sanitize(r.err.Error())
	}
	if name, ok := strings.CutPrefix(msg, "no such attribute(s): "); ok {
		if better, at := p.misspeltCall(name); better != "" {
			return nil, &Error{Msg: better, Offset: at}
		}
	}
	if id == 0 {
		return nil, &Error{Msg: msg, Offset: off}
	}
	msg = p.withHint(act, id, msg)
	unknown, better := p.inspectCall(act, id, msg)
	if unknown {
		return p.typedUnknown(act), nil
	}
	if better != "" {
		msg = better
	}
	return nil, &Error{Msg: msg, Offset: off}
}

// withHint adds the hint for a failure at node id that CEL words without
// one: a missing key, a negative index, a field read on a list (whose
// message is reworded).
func (p *Program) withHint(act interpreter.Activation, id int64, msg string) string {
	switch {
	case msg == "no such key":
		return msg + p.missingKeyHint(act, id)
	case msg == "index out of range":
		return msg + p.negativeIndexHint(id)
	case strings.HasPrefix(msg, "unsupported index type 'string' in list"):
		if f, ok := p.selectedField(id); ok {
			return "a list has no field '" + f + "'" + hint.Size(f)
		}
	}
	return msg
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
		budget := celval.MaxConvertNodes
		if celval.HoldsUnknown(v, &budget) {
			return true, ""
		}
		typeNames = append(typeNames, celval.CELTypeNameOf(v))
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
