package walk

import (
	"context"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"go.yaml.in/yaml/v3"
)

// Evaluating CEL expressions: through the program cache, or directly for
// a plain variable or field chain; errors get a caret and a hint.

// Eval evaluates one CEL expression with variables.
func (e *Engine) Eval(ctx context.Context, expr string, vars map[string]value.Value) (value.Value, error) {
	r := e.newRenderer(ctx)
	sc := scope.Root(vars)
	fr := &diag.Frame{File: InlineName, Dir: "."}
	x := tree.NewExprRef(tree.ExprRef{Text: expr, Shown: expr, Node: &yaml.Node{Line: 1, Column: 1}, Bare: "eval()"})
	v, err := r.EvalExpr(x, sc, fr)
	if err != nil {
		return nil, err
	}
	out, present, cerr := celenv.FromCELOutput(v)
	if cerr != nil {
		return nil, r.ResultErr(fr, x, cerr)
	}
	if !present {
		return nil, nil
	}
	return out, nil
}

// EvalExpr compiles (through the cache) and evaluates one expression.
func (r *Renderer) EvalExpr(x *tree.ExprRef, sc *scope.Scope, fr *diag.Frame) (ref.Val, error) {
	if x.Fast != nil {
		if v, ok := r.fastPath(x.Fast, sc); ok {
			return v, nil
		}
	}
	p, xerr := r.e.progs.Compile(x.Text, sc.Has)
	if xerr == nil {
		var v ref.Val
		v, xerr = p.Eval(r.ctx, sc, &r.budget)
		if xerr == nil {
			return v, nil
		}
	}
	off := -1
	if xerr.Offset >= 0 {
		off = x.Off + xerr.Offset
	}
	p0 := diag.Pos{File: fr.File, Line: x.Node.Line, Column: x.Node.Column}
	msg, hinted := explain(xerr.Msg, sc)
	if !hinted {
		// A close name is the likelier mistake; one hint at a time.
		d, _ := r.e.table.Lookup(x.Bare)
		msg += hint.Bare(x.Bare, d.Exprs == tree.ExprEntries, x.Text, xerr.Msg)
	}
	return nil, &diag.Error{Pos: p0, Path: x.Path, Msg: msg, Expr: x.Shown, Offset: off, Chain: fr.Chain, Limit: xerr.Limit}
}

// explain rewrites two CEL messages users meet often into plain words:
// a name that is not in scope (with the closest name that is, or the CEL
// spelling of a word from another language), and a CEL reserved word used
// as a name. Names are template text or variable names, never values.
// hinted reports that the message already says what was probably meant.
func explain(msg string, sc *scope.Scope) (out string, hinted bool) {
	const undeclared = "no such attribute(s): "
	if rest, ok := strings.CutPrefix(msg, undeclared); ok {
		name, _, _ := strings.Cut(rest, ".")
		name, _, _ = strings.Cut(name, ",")
		name = strings.TrimSpace(name)
		out = "undeclared reference to '" + name + "': no variable of that name is in scope"
		if s := closestName(name, sc); s != "" {
			return out + "; did you mean '" + s + "'?", true
		}
		if w, ok := hint.ForeignName(name); ok {
			return out + "; CEL writes " + w, true
		}
		return out, false
	}
	if i := strings.Index(msg, "reserved identifier: "); i >= 0 {
		word := strings.Fields(msg[i+len("reserved identifier: "):])
		if len(word) > 0 {
			return msg + " (" + word[0] + " is a reserved word in CEL and cannot name a variable: give the variable another name)", true
		}
	}
	return msg, false
}

// closestName finds the name in scope nearest to name, if one is close.
func closestName(name string, sc *scope.Scope) string {
	return hint.Nearest(name, sc.Names(), hint.TypoLimit(name), false)
}

// fastPath reads a variable, or a chain of field selections on a map from
// the template or the variables, straight from the scope. Anything unusual
// (a missing name or key, a value that is not such a map, an exhausted
// budget) returns false, and the expression runs through CEL, which gives
// the exact result or error.
func (r *Renderer) fastPath(path []string, sc *scope.Scope) (ref.Val, bool) {
	if len(path) > 1 {
		v, ok := r.FastValue(path, sc)
		if !ok {
			return nil, false
		}
		return celenv.ToCEL(v), true
	}
	if r.budget < 1 {
		return nil, false
	}
	v, ok := sc.Lookup(path[0])
	if !ok || v == nil || types.IsError(v) {
		return nil, false
	}
	r.budget--
	return v, true
}

// FastValue reads a variable bound from an engine value, or a field chain
// whose root is such a value or a map from the template or the variables:
// it returns the engine value stored there, exactly what CEL would give
// back after converting it both ways (celenv.FromCEL(celenv.ToCEL(v)) is v for every kind
// scope.setValue keeps).
func (r *Renderer) FastValue(path []string, sc *scope.Scope) (value.Value, bool) {
	cost := uint64(len(path))
	if cost == 0 || r.budget < cost || cost > r.e.opts.MaxCostPerExpression {
		return nil, false
	}
	v, val, ok := sc.Binding(path[0])
	if !ok {
		return nil, false
	}
	if v == nil {
		m, ok := celenv.AsMap(val)
		if !ok {
			return nil, false
		}
		v = m
	}
	for i, name := range path[1:] {
		switch x := v.(type) {
		case *value.Map:
			e, ok := x.Get(name)
			if !ok {
				return nil, false
			}
			v = e
		case value.Unknown:
			// A field of a value not known yet: unknown, of the type the
			// value's own type gives it (an object's attribute, a map's
			// element), dynamic where that says nothing.
			r.budget -= cost
			return value.UnknownOf(fieldsType(x.Type, path[1+i:])), true
		default:
			return nil, false
		}
	}
	r.budget -= cost
	return v, true
}

// EvalBool evaluates a condition. unknown reports an undecidable one.
func (r *Renderer) EvalBool(x *tree.ExprRef, sc *scope.Scope, fr *diag.Frame, what string) (val, unknown bool, err error) {
	if x.Eq != nil && r.budget > 0 {
		// A string compared with a literal needs no CEL program. Anything
		// else found there (a number, a missing key) goes through CEL,
		// which gives the exact result or error.
		if v, ok := r.FastValue(x.Eq.Path, sc); ok {
			switch v := v.(type) {
			case string:
				r.budget--
				return v == x.Eq.Lit, false, nil
			case value.Unknown:
				return false, true, nil
			}
		}
	}
	v, err := r.EvalExpr(x, sc, fr)
	if err != nil {
		return false, false, err
	}
	switch b := v.(type) {
	case types.Bool:
		return bool(b), false, nil
	case *types.Unknown:
		return false, true, nil
	}
	return false, false, &diag.Error{Pos: diag.Pos{File: fr.File, Line: x.Node.Line, Column: x.Node.Column}, Path: x.Path,
		Msg: what + " must be a bool, got " + celenv.TypeName(v) + "; " + hint.NoTruthiness, Expr: x.Shown, Offset: -1, Chain: fr.Chain}
}

// Explain is a CEL compile message as a render words it (explain), with
// the names of sc: for check, which words its messages as a render does.
func Explain(msg string, sc *scope.Scope) (out string, hinted bool) { return explain(msg, sc) }

// ClosestName finds the name of sc nearest to name, if one is close.
func ClosestName(name string, sc *scope.Scope) string { return closestName(name, sc) }

// fieldsType is the type of the chain of field selections names on a
// value of type t: dynamic once the type says nothing of a field.
func fieldsType(t value.Type, names []string) value.Type {
	for _, name := range names {
		ft, ok := t.Field(name)
		if !ok {
			return value.TypeDynamic
		}
		t = ft
	}
	return t
}
