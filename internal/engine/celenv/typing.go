package celenv

import (
	"math"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv/celval"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// Typing unknown results: an expression whose value is not known yet still
// has a type when CEL's checker can tell it whatever its variables hold
// (`x + 'a'` is a string, `size(x)` an int, `x == y` a bool). Such a
// result is an unknown of that type, so that Terraform sees an unknown
// string, not an unknown of any type (the unknown-values guide).

// typedUnknown is the unknown an evaluation of p against act gave, with
// the most precise type known: a name, or a field chain on a map of engine
// values, gives the unknown stored there, with its own type (as the
// renderer's direct reads do); anything else the type of its result
// (resultType).
func (p *Program) typedUnknown(act interpreter.Activation) ref.Val {
	if t, ok := p.pathType(act); ok {
		return celval.UnknownOf(t)
	}
	return celval.UnknownOf(p.resultType())
}

// pathType is the type of the unknown that the expression, a name or a
// chain of field selections and constant indexes on one, reads; ok is
// false for any other expression, or a chain over anything but engine
// values. A field or element of an unknown value has the type the
// unknown's own type gives it (an object's attribute, a map's or list's
// element, a tuple's i-th): `values.image` of an unknown
// object({image=string}) is an unknown string, and so are `args[0]` of an
// unknown list(string) and `labels['app.kubernetes.io/name']` of an
// unknown map(string).
func (p *Program) pathType(act interpreter.Activation) (t value.Type, ok bool) {
	path := p.path
	if len(path) == 0 || act == nil {
		return value.TypeDynamic, false
	}
	root, found := act.ResolveName(path[0].name)
	if !found {
		return value.TypeDynamic, false
	}
	if r, isUnknown := root.(*types.Unknown); isUnknown {
		return stepsType(celval.UnknownType(r), path[1:])
	}
	rv, _ := root.(ref.Val)
	var v value.Value
	if m, isMap := celval.AsMap(rv); isMap {
		v = m
	} else if l, isList := celval.AsList(rv); isList {
		v = l
	} else {
		return value.TypeDynamic, false
	}
	for i, st := range path[1:] {
		switch x := v.(type) {
		case *value.Map:
			if st.index >= 0 {
				return value.TypeDynamic, false
			}
			if v, found = x.Get(st.name); !found {
				return value.TypeDynamic, false
			}
		case []value.Value:
			if st.index < 0 || st.index >= len(x) {
				return value.TypeDynamic, false
			}
			v = x[st.index]
		case value.Unknown:
			return stepsType(x.Type, path[1+i:])
		default:
			return value.TypeDynamic, false
		}
	}
	if u, isUnknown := v.(value.Unknown); isUnknown {
		return u.Type, true
	}
	return value.TypeDynamic, false
}

// stepsType is the type of the chain of field selections and indexes
// steps on an unknown of type t: dynamic where the type says nothing of a
// step.
func stepsType(t value.Type, steps []readStep) (value.Type, bool) {
	for _, st := range steps {
		var ft value.Type
		var has bool
		if st.index >= 0 {
			ft, has = t.Index(st.index)
		} else {
			ft, has = t.Field(st.name)
		}
		if !has {
			return value.TypeDynamic, true
		}
		t = ft
	}
	return t, true
}

// readStep is one step of a read path: the root name or a field selection
// or constant string index (name, index -1), or a constant int index
// (index >= 0).
type readStep struct {
	name  string
	index int
}

// readPath gives the steps of an expression that is a name or a chain of
// field selections and constant indexes on one (`svc.image.tag`,
// `args[0]`, `labels['app']`), root first; nil for any other expression.
func readPath(e celast.Expr) []readStep {
	var rev []readStep
	for {
		if e.Kind() == celast.SelectKind {
			s := e.AsSelect()
			if s.IsTestOnly() {
				return nil
			}
			rev = append(rev, readStep{name: s.FieldName(), index: -1})
			e = s.Operand()
			continue
		}
		if e.Kind() == celast.CallKind {
			c := e.AsCall()
			if c.FunctionName() != operators.Index || len(c.Args()) != 2 || c.IsMemberFunction() || c.Args()[1].Kind() != celast.LiteralKind {
				return nil
			}
			switch k := c.Args()[1].AsLiteral().(type) {
			case types.String:
				rev = append(rev, readStep{name: string(k), index: -1})
			case types.Int:
				if k < 0 || int64(k) > int64(math.MaxInt32) {
					return nil
				}
				rev = append(rev, readStep{index: int(k)})
			default:
				return nil
			}
			e = c.Args()[0]
			continue
		}
		break
	}
	if e.Kind() != celast.IdentKind {
		return nil
	}
	path := make([]readStep, 0, len(rev)+1)
	path = append(path, readStep{name: e.AsIdent(), index: -1})
	for i := len(rev) - 1; i >= 0; i-- {
		path = append(path, rev[i])
	}
	return path
}

// resultType is the type of every value the expression can have, as
// CEL's checker tells it with each of its variables of type dyn, or
// TypeDynamic when the checker cannot tell. It is worked out once per
// program, the first time the program gives an unknown value, so renders
// with known values never pay for it.
func (p *Program) resultType() value.Type {
	p.typeOnce.Do(func() { p.outType = p.checkedType() })
	return p.outType
}

// checkedType runs the checker on the expression's text in the
// environment extended with its free names as dyn variables.
func (p *Program) checkedType() (t value.Type) {
	switch root := p.ast.Expr(); root.Kind() {
	case celast.SelectKind:
		if !root.AsSelect().IsTestOnly() { // has(x.f) is a bool
			return value.TypeDynamic // a field of a dyn variable
		}
	case celast.IdentKind, celast.ListKind, celast.MapKind, celast.StructKind:
		// A dyn variable, a list or a map: never a primitive type the
		// checker could name.
		return value.TypeDynamic
	}
	defer func() {
		if recover() != nil {
			t = value.TypeDynamic
		}
	}()
	env := p.cache.env.env
	opts := make([]cel.EnvOption, 0, len(p.names))
	for _, c := range p.names {
		if _, isType := env.CELTypeProvider().FindIdent(c.name); isType {
			continue
		}
		opts = append(opts, cel.Variable(c.name, cel.DynType))
	}
	if len(opts) > 0 {
		var err error
		if env, err = env.Extend(opts...); err != nil {
			return value.TypeDynamic
		}
	}
	a, iss := env.Compile(p.expr)
	if iss.Err() != nil {
		return value.TypeDynamic
	}
	return typeOfCEL(a.OutputType())
}

// typeOfCEL gives the engine type of the values of CEL type ct, as FromCEL
// converts them: strings, and the bytes, timestamps and durations written
// as strings; every number; bools. Anything else is dynamic.
func typeOfCEL(ct *types.Type) value.Type {
	if ct == nil {
		return value.TypeDynamic
	}
	switch ct.Kind() {
	case types.StringKind, types.BytesKind, types.TimestampKind, types.DurationKind:
		return value.TypeString
	case types.IntKind, types.UintKind, types.DoubleKind:
		return value.TypeNumber
	case types.BoolKind:
		return value.TypeBool
	}
	return value.TypeDynamic
}
