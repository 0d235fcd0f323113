package celenv

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv/celval"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// Hints: what an error adds to say how to write the thing that failed.
// Users come from HCL, Helm, ytt, Python and JavaScript, and CEL differs
// from each: no truthiness, no implicit conversion, no pipes, different
// names. A hint is added only when it fits what the template wrote, and
// it is made of the template's own text and type names, never of a
// variable's value.

// missingKeyHint names the key that a failed lookup asked for, when the
// template spells it (`svc.nme`, `labels['tier']`), and says how to allow a
// missing one. A key computed at run time may come from a variable's value,
// so it is never shown.
func (p *Program) missingKeyHint(act interpreter.Activation, id int64) string {
	node := p.node(id)
	if node == nil {
		return ""
	}
	var operand celast.Expr
	key, dotted := "", false
	switch node.Kind() {
	case celast.SelectKind:
		sel := node.AsSelect()
		if sel.IsTestOnly() {
			return ""
		}
		operand, key, dotted = sel.Operand(), sel.FieldName(), true
	case celast.CallKind:
		on, idx, ok := indexCall(node)
		if !ok || idx.Kind() != celast.LiteralKind {
			return ""
		}
		s, ok := idx.AsLiteral().(types.String)
		if !ok {
			return ""
		}
		operand, key = on, string(s)
	default:
		return ""
	}
	if strings.ContainsAny(key, "'\\") || !utf8.ValidString(key) || strings.IndexFunc(key, unicode.IsControl) >= 0 {
		return ""
	}
	named := " '" + key + "'"
	on, qualified := qualifiedName(operand)
	var held ref.Val
	if qualified && !p.bindsLocally(strings.SplitN(on, ".", 2)[0]) {
		held = resolveQualified(act, on)
	}
	if held == nil {
		if st := p.trace(act); st != nil {
			held, _ = st.Value(operand.ID())
		}
	}
	if held == nil {
		// The operand could not be read again, e.g. a comprehension's
		// variable: name the key, and suggest nothing that may not fit.
		return named
	}
	switch t := celval.CELTypeNameOf(held); t {
	case "map":
	case "null_type":
		return named + " in null; only a map has keys"
	default:
		return named + " in a value of type " + t + "; only a map has keys" + hint.Size(key)
	}
	if !qualified {
		return named
	}
	if dotted {
		return named + "; test for it with has(" + on + "." + key + "), or give a default with " + on + ".?" + key + ".orValue(…)"
	}
	return named + "; test for it with '" + key + "' in " + on + ", or give a default with " + on + "[?'" + key + "'].orValue(…)"
}

// firstMissing is the lookup that failed first in a chain of them: CEL
// reports `a.b.c` as failing at `.c` when `a` has no key b, as it resolves
// the chain as one attribute.
func (p *Program) firstMissing(act interpreter.Activation, id int64) int64 {
	for range 64 {
		node := p.node(id)
		if node == nil || node.Kind() != celast.SelectKind || node.AsSelect().IsTestOnly() {
			return id
		}
		operand := node.AsSelect().Operand()
		on, qualified := qualifiedName(operand)
		if !qualified || operand.Kind() != celast.SelectKind || p.bindsLocally(strings.SplitN(on, ".", 2)[0]) {
			return id
		}
		if resolveQualified(act, on) != nil {
			return id // the operand is there: the last lookup failed
		}
		id = operand.ID()
	}
	return id
}

// node finds the expression node with the given id.
func (p *Program) node(id int64) celast.Expr {
	var node celast.Expr
	celast.PreOrderVisit(p.ast.Expr(), celast.NewExprVisitor(func(x celast.Expr) {
		if x.ID() == id {
			node = x
		}
	}))
	return node
}

// bindsLocally reports whether a comprehension in the expression binds
// name, which then may not be the variable of that name in scope.
func (p *Program) bindsLocally(name string) bool {
	found := false
	celast.PreOrderVisit(p.ast.Expr(), celast.NewExprVisitor(func(x celast.Expr) {
		if x.Kind() == celast.ComprehensionKind {
			c := x.AsComprehension()
			found = found || c.IterVar() == name || c.IterVar2() == name || c.AccuVar() == name
		}
	}))
	return found
}

// resolveQualified reads a chain of names such as `svc.meta` from act, or
// gives nil if any link is missing or not a map.
func resolveQualified(act interpreter.Activation, on string) ref.Val {
	names := strings.Split(on, ".")
	v, ok := act.ResolveName(names[0])
	if !ok {
		return nil
	}
	for _, f := range names[1:] {
		m, ok := v.(traits.Mapper)
		if !ok {
			return nil
		}
		if v, ok = m.Find(types.String(f)); !ok {
			return nil
		}
	}
	rv, _ := v.(ref.Val)
	return rv
}

// functionHint says what a call to the unknown function fn probably meant:
// the CEL spelling of a name from another language, or the closest
// function of the environment. It is "" when nothing fits.
func (ce *celEnvironment) functionHint(fn string) string {
	if w, ok := hint.ForeignFunction(fn); ok {
		return "; CEL writes " + w
	}
	if s := ce.closestFunction(fn); s != "" {
		return "; did you mean '" + s + "'?"
	}
	return ""
}

// negativeIndexHint explains `xs[-1]`: CEL has no negative indexes.
func (p *Program) negativeIndexHint(id int64) string {
	_, idx, ok := indexCall(p.node(id))
	if !ok {
		return ""
	}
	negative := idx.Kind() == celast.CallKind && idx.AsCall().FunctionName() == "-_"
	if idx.Kind() == celast.LiteralKind {
		n, isInt := idx.AsLiteral().(types.Int)
		negative = isInt && n < 0
	}
	if !negative {
		return ""
	}
	return "; CEL has no negative indexes: the last element is xs[size(xs) - 1]"
}

// indexCall splits node, when it is an index `operand[index]`, into its
// two parts.
func indexCall(node celast.Expr) (operand, index celast.Expr, ok bool) {
	if node == nil || node.Kind() != celast.CallKind {
		return nil, nil, false
	}
	c := node.AsCall()
	if c.FunctionName() != "_[_]" || len(c.Args()) != 2 {
		return nil, nil, false
	}
	return c.Args()[0], c.Args()[1], true
}

// selectedField gives the field name when node id is a field selection.
func (p *Program) selectedField(id int64) (string, bool) {
	node := p.node(id)
	if node == nil || node.Kind() != celast.SelectKind {
		return "", false
	}
	return node.AsSelect().FieldName(), true
}
