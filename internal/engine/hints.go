package engine

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

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

// bareHint explains the two mistakes people make with the directives that
// take a whole string as CEL ($if, $for, $let, $assert, eval()): wrapping
// it in ${{ }} as in $eval, and writing plain text where a $let value is
// CEL, e.g. `env: prod` for the string 'prod'. It is "" otherwise.
func bareHint(x *exprRef, msg string) string {
	if x.bare == "" {
		return ""
	}
	syntax := strings.HasPrefix(msg, "Syntax error")
	if syntax && strings.Contains(x.text, "${{") {
		return "; " + x.bare + " takes a bare CEL expression: write it without ${{ }}"
	}
	undeclared := strings.HasPrefix(msg, "no such attribute(s): ")
	if x.bare == "$let" && (syntax || undeclared) && looksLikeText(x.text) {
		return "; a $let string is a CEL expression: to bind the text itself, quote it inside: \"'" + strings.TrimSpace(x.text) + "'\""
	}
	return ""
}

// looksLikeText reports whether s reads as a plain word or value (prod,
// nginx:1.25, eu-west-1) rather than an expression: no spaces, quotes,
// brackets or operators that only CEL would use.
func looksLikeText(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && !strings.ContainsAny(s, " \t\n'\"`()[]{}<>=!&|?,+*\\")
}

// missingKeyHint names the key that a failed lookup asked for, when the
// template spells it (`svc.nme`, `labels['tier']`), and says how to allow a
// missing one. A key computed at run time may come from a variable's value,
// so it is never shown.
func (p *program) missingKeyHint(act interpreter.Activation, id int64) string {
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
	switch t := celTypeNameOf(held); t {
	case "map":
	case "null_type":
		return named + " in null; only a map has keys"
	default:
		return named + " in a value of type " + t + "; only a map has keys" + sizeHint(key)
	}
	if !qualified {
		return named
	}
	if dotted {
		return named + "; test for it with has(" + on + "." + key + "), or give a default with " + on + ".?" + key + ".orValue(…)"
	}
	return named + "; test for it with '" + key + "' in " + on + ", or give a default with " + on + "[?'" + key + "'].orValue(…)"
}

// node finds the expression node with the given id.
func (p *program) node(id int64) celast.Expr {
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
func (p *program) bindsLocally(name string) bool {
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

// overloadHint says how to fix the type mismatches that people coming from
// HCL, Helm or JavaScript meet first, because CEL never converts a value on
// its own: text joined with a number, int mixed with double, a list joined
// with an element, and a non-bool used as a condition. It is "" for any
// other mismatch, whose signature speaks for itself.
func overloadHint(fn string, typeNames []string) string {
	switch fn {
	case "_&&_", "_||_", "!_", "_?_:_":
		cond := typeNames
		if fn == "_?_:_" && len(cond) > 0 {
			cond = typeNames[:1]
		}
		for _, t := range cond {
			if t != "bool" && t != "?" {
				return "; " + noTruthiness
			}
		}
	case "_+_", "_-_", "_*_", "_/_", "_%_":
		if len(typeNames) != 2 {
			return ""
		}
		a, b := typeNames[0], typeNames[1]
		switch {
		case a == "?" || b == "?":
		case a == "null_type" || b == "null_type":
			return "; one side is null: test for it first, e.g. x != null ? … : …, or m.?key.orValue(…) for a missing key"
		case fn == "_+_" && (a == "list") != (b == "list"):
			return "; to add one element to a list, wrap it in a list: xs + [x]"
		case fn == "_+_" && (a == "string") != (b == "string"):
			return "; CEL never turns a value into text on its own: write string(x), or interpolate it: $eval: \"name-${{ x }}\""
		case isNumberType(a) && isNumberType(b) && a != b:
			return "; CEL never mixes int, uint and double: convert one side, e.g. double(x) or int(x)"
		}
	case "contains":
		if len(typeNames) > 0 && typeNames[0] == "list" {
			return "; to test whether a list holds a value, write x in xs"
		}
	}
	return ""
}

// noTruthiness is the hint for a non-bool where CEL needs a bool.
const noTruthiness = "CEL has no truthiness: compare explicitly, e.g. x != '', size(x) > 0 or x != null"

func isNumberType(t string) bool { return t == "int" || t == "uint" || t == "double" }

// foreignFunctions are functions of HCL, Helm (sprig), Python and
// JavaScript that CEL spells differently or does not have, with what to
// write instead. None of them names a function of the environment (a
// test checks this), so a real function is never shadowed.
var foreignFunctions = map[string]string{
	"len":          "size(x), or x.size()",
	"length":       "size(x), or x.size()",
	"count":        "size(x), or x.size()",
	"toUpperCase":  "upperAscii()",
	"toLowerCase":  "lowerAscii()",
	"strip":        "trim()",
	"trimSpace":    "trim()",
	"replaceAll":   "replace(old, new)",
	"hasPrefix":    "startsWith(prefix)",
	"hasSuffix":    "endsWith(suffix)",
	"default":      "x.?key.orValue(fallback), or has(x.key) ? x.key : fallback",
	"coalesce":     "a != null ? a : b",
	"ternary":      "cond ? a : b",
	"empty":        "size(x) == 0",
	"hasKey":       "has(m.key), or 'key' in m",
	"keys":         "m.map(k, k)",
	"values":       "m.map(k, m[k])",
	"items":        "m.transformList(k, v, [k, v])",
	"append":       "xs + [x]",
	"push":         "xs + [x]",
	"str":          "string(x)",
	"toString":     "string(x)",
	"tostring":     "string(x)",
	"parseInt":     "int(s)",
	"atoi":         "int(s)",
	"printf":       "'%s-%d'.format([a, b]), or interpolation in $eval: \"${{ a }}-${{ b }}\"",
	"sprintf":      "'%s-%d'.format([a, b]), or interpolation in $eval: \"${{ a }}-${{ b }}\"",
	"toJson":       "json.encode(x)",
	"toYaml":       "yaml.encode(x), or an exact $eval that keeps the value as it is",
	"fromJson":     "json.decode(s)",
	"fromYaml":     "yaml.decode(s)",
	"sha256sum":    "sha256(s)",
	"b64enc":       "base64.encode(bytes(s))",
	"b64dec":       "string(base64.decode(s))",
	"regexMatch":   "s.matches(re)",
	"trunc":        "s.size() > n ? s.substring(0, n) : s",
	"quote":        "nothing: the output quotes a string wherever YAML needs it",
	"required":     "$assert with $msg, or $schema with required",
	"now":          "no clock, so that output never changes between runs: pass a timestamp in the context",
	"uuid":         "no randomness, so that output never changes between runs: make the value in Terraform and pass it in the context",
	"randAlphaNum": "no randomness, so that output never changes between runs: make the value in Terraform and pass it in the context",
	"env":          "no environment: pass the value in the context",
	"getenv":       "no environment: pass the value in the context",
	"lookup":       "no access to live objects: read them with a Terraform data source and pass the result in the context",
	"file":         "$include for a template, or Terraform's file() passed in the context",
}

// functionHint says what a call to the unknown function fn probably meant:
// the CEL spelling of a name from another language, or the closest
// function of the environment. It is "" when nothing fits.
func (ce *celEnvironment) functionHint(fn string) string {
	if w, ok := foreignFunctions[fn]; ok {
		return "; CEL writes " + w
	}
	if s := ce.closestFunction(fn); s != "" {
		return "; did you mean '" + s + "'?"
	}
	return ""
}

// foreignNames are words of other languages that CEL spells differently,
// met as undeclared variables.
var foreignNames = map[string]string{
	"nil": "null", "None": "null", "undefined": "null", "NULL": "null", "Nil": "null", "none": "null",
	"True": "true", "TRUE": "true", "False": "false", "FALSE": "false",
}

// plainSyntax words the parser's token sets in plain terms: the set of
// every token that can start an operand ({'[', '{', '(', ..., IDENTIFIER})
// reads "a value", a small set {']', ','} reads ']' or ',', and the end of
// input '<EOF>' reads "the end of the expression". The rest of the
// message, and the caret, stay.
func plainSyntax(msg string) string {
	msg = operandSet.ReplaceAllStringFunc(msg, func(set string) string {
		if strings.Contains(set, "')'") {
			return "a value or ')'"
		}
		return "a value"
	})
	msg = tokenSet.ReplaceAllStringFunc(msg, func(set string) string {
		return strings.Join(strings.Split(set[1:len(set)-1], ", "), " or ")
	})
	msg = strings.Replace(msg, "mismatched input '<EOF>' expecting", "the expression ends too early, expecting", 1)
	msg = strings.Replace(msg, "at '<EOF>'", "at the end of the expression", 1)
	return strings.Replace(msg, "expecting <EOF>", "expecting the end of the expression", 1)
}

// tokenSet matches a small set of quoted tokens, {']', ','}, which reads
// ']' or ','.
var tokenSet = regexp.MustCompile(`\{'[^']+'(, '[^']+')*\}`)

// operandSet matches a parser token set that holds every start of an
// operand.
var operandSet = regexp.MustCompile(`\{[^}]*'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER\}`)

// syntaxHint names the operators of other languages that CEL spells
// differently, when a failed parse holds one outside its string literals:
// and/or/not, a single = or ===, a pipe, and a lambda arrow. An expression
// wrapped in ${{ }} gets bareHint's hint instead.
func syntaxHint(expr string) string {
	if strings.Contains(expr, "${{") {
		return ""
	}
	code := blankStrings(expr)
	switch {
	case foreignWords.MatchString(code):
		return "; CEL writes &&, || and ! for and, or and not"
	case strings.Contains(code, "=>") || strings.Contains(code, "->"):
		return "; a macro takes a variable name and an expression, not a lambda: xs.filter(x, x > 1)"
	case singleEquals.MatchString(code):
		return "; compare with == (CEL has no = or ===)"
	case singlePipe.MatchString(code):
		return "; CEL has no pipes: call a function or a method, e.g. s.upperAscii(), and write || for or"
	}
	return ""
}

var (
	foreignWords = regexp.MustCompile(`(^|[^\w.])(and|or|not)([^\w(]|$)`)
	singleEquals = regexp.MustCompile(`(^|[^=!<>~])=([^=]|$)|===`)
	singlePipe   = regexp.MustCompile(`(^|[^|])\|([^|]|$)`)
)

// blankStrings replaces the contents of the string literals in expr with
// spaces, so that only code is searched.
func blankStrings(expr string) string {
	b := []byte(expr)
	for i := 0; i < len(b); i++ {
		if b[i] != '\'' && b[i] != '"' {
			continue
		}
		end, err := skipString(expr, i, i, false)
		if err != nil {
			end = len(b)
		}
		for k := i; k < end; k++ {
			b[k] = ' '
		}
		i = end - 1
	}
	return string(b)
}

// negativeIndexHint explains `xs[-1]`: CEL has no negative indexes.
func (p *program) negativeIndexHint(id int64) string {
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
func (p *program) selectedField(id int64) (string, bool) {
	node := p.node(id)
	if node == nil || node.Kind() != celast.SelectKind {
		return "", false
	}
	return node.AsSelect().FieldName(), true
}

// sizeHint points a field read such as xs.length at size().
func sizeHint(field string) string {
	switch field {
	case "length", "len", "size", "count":
		return "; write size(x) for its length"
	}
	return ""
}
