package celenv

import (
	"strconv"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv/celval"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// Planning: the decorators that price calls and make map literals deterministic.

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
	left := uint64(celval.MaxConvertNodes)
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
		if rcv, ok := v.(traits.Receiver); ok && v.Type().HasTrait(traits.ReceiverType) {
			return labelErr(w.id, rcv.Receive(w.fn, w.overload, []ref.Val{})), 1
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
	if rcv, ok := l.(traits.Receiver); ok && l.Type().HasTrait(traits.ReceiverType) {
		return labelErr(w.id, rcv.Receive(w.fn, w.overload, []ref.Val{r})), 2
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
	if rcv, ok := arg0.(traits.Receiver); ok && arg0.Type().HasTrait(traits.ReceiverType) {
		return labelErr(w.id, rcv.Receive(w.fn, w.overload, argVals[1:])), argVals
	}
	return types.NewErrWithNodeID(w.id, "no such overload: %s", w.fn), argVals
}

// deepFunctions are priced before they run (see precharge).
var deepFunctions = map[string]bool{
	"_==_": true, "_!=_": true, "@in": true, "indexOf": true, "lastIndexOf": true, "includes": true,
	"sets.contains": true, "sets.equivalent": true, "sets.intersects": true, "distinct": true,
	"deepMerge": true,
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
	case "deepMerge":
		// It copies both values whole: one unit per node of each.
		if len(args) == 2 {
			return deepSize(args[0], limit) + deepSize(args[1], limit)
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
		if err := c.repeatedKey(frame, v); err != nil {
			return err
		}
		return celval.SortMap(v)
	}
	return v
}

// repeatedKey refuses a map literal that writes the same key twice
// (reference §5), which cel-go would build keeping the last value. A map
// smaller than its literal has entries either drops an optional entry or
// repeats a key; only then are the keys evaluated again to find the
// repetition. A key written as a constant is named, in the form CEL
// writes it; a key computed from variables is not.
func (c *costCtor) repeatedKey(frame *interpreter.ExecutionFrame, v ref.Val) ref.Val {
	m, ok := v.(traits.Mapper)
	if !ok {
		return nil
	}
	init := c.InitVals()
	n, _ := m.Size().(types.Int)
	if int(n)*2 >= len(init) {
		return nil
	}
	// Keys as cel-go's map literal keeps them: Go map keys, so that 1 and
	// 1u are two keys there too.
	seen := make(map[ref.Val]bool, len(init)/2)
	for i := 0; i+1 < len(init); i += 2 {
		k := init[i].Exec(frame)
		if !seen[k] {
			seen[k] = true
			continue
		}
		if kc, ok := init[i].(interpreter.InterpretableConst); ok {
			return types.NewErrWithNodeID(init[i].ID(), "the map literal writes the key %s twice", constText(kc.Value()))
		}
		return types.NewErrWithNodeID(init[i].ID(), "the map literal gives the same key twice")
	}
	return nil
}

// constText writes a constant map key as CEL source writes it.
func constText(v ref.Val) string {
	switch k := v.(type) {
	case types.String:
		return strconv.Quote(string(k))
	case types.Uint:
		return strconv.FormatUint(uint64(k), 10) + "u"
	case types.Int:
		return strconv.FormatInt(int64(k), 10)
	case types.Bool:
		return strconv.FormatBool(bool(k))
	}
	return "of type " + v.Type().TypeName()
}
