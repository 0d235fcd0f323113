package hint

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/lex"
)

// Bare explains the two mistakes people make with the directives that
// take a whole string as CEL ($if, $for, $let, $assert, eval()): wrapping
// it in ${{ }} as in $eval, and writing plain text where a $let value is
// CEL, e.g. `env: prod` for the string 'prod'. It is "" otherwise.
//
// directive names the directive that takes the bare expression ("" for
// one written inside ${{ }}), entry says the expression is an entry of a
// mapping whose entries are expressions or templates (as $let's are),
// where text may be meant as text, text is the expression as written and
// msg the error.
func Bare(directive string, entry bool, text, msg string) string {
	if directive == "" {
		return ""
	}
	syntax := strings.HasPrefix(msg, "Syntax error")
	if syntax && strings.Contains(text, "${{") {
		return "; " + directive + " takes a bare CEL expression: write it without ${{ }}"
	}
	undeclared := strings.HasPrefix(msg, "no such attribute(s): ")
	if entry && (syntax || undeclared) && LooksLikeText(text) {
		return "; a " + directive + " string is a CEL expression: to bind the text itself, quote it inside: \"'" + strings.TrimSpace(text) + "'\""
	}
	return ""
}

// LooksLikeText reports whether s reads as a plain word or value (prod,
// nginx:1.25, eu-west-1) rather than an expression: no spaces, quotes,
// brackets or operators that only CEL would use.
func LooksLikeText(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && !strings.ContainsAny(s, " \t\n'\"`()[]{}<>=!&|?,+*\\")
}

// Overload says how to fix the type mismatches that people coming from
// HCL, Helm or JavaScript meet first, because CEL never converts a value on
// its own: text joined with a number, int mixed with double, a list joined
// with an element, and a non-bool used as a condition. It is "" for any
// other mismatch, whose signature speaks for itself.
func Overload(fn string, typeNames []string) string {
	switch fn {
	case "_&&_", "_||_", "!_", "_?_:_":
		cond := typeNames
		if fn == "_?_:_" && len(cond) > 0 {
			cond = typeNames[:1]
		}
		for _, t := range cond {
			if t != "bool" && t != "?" {
				return "; " + NoTruthiness
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

// NoTruthiness is the hint for a non-bool where CEL needs a bool.
const NoTruthiness = "CEL has no truthiness: write truthy(x) for Helm's notion of set, or compare explicitly, e.g. x != '', size(x) > 0 or x != null"

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
	"default":      "x.?key.orValue(fallback) for a missing key; to replace '' and 0 too, as Helm's default does: optional.ofNonZeroValue(x.?key.orValue('')).orValue(fallback)",
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

// ForeignFunction gives what CEL writes for fn, a function of another
// language, and whether fn is one.
func ForeignFunction(fn string) (string, bool) {
	w, ok := foreignFunctions[fn]
	return w, ok
}

// ForeignFunctionNames lists the functions of other languages that
// ForeignFunction knows, sorted.
func ForeignFunctionNames() []string {
	return slices.Sorted(maps.Keys(foreignFunctions))
}

// ForeignName gives what CEL writes for name, a word of another language
// met as an undeclared variable, and whether name is one.
func ForeignName(name string) (string, bool) {
	w, ok := foreignNames[name]
	return w, ok
}

// foreignNames are words of other languages that CEL spells differently,
// met as undeclared variables.
var foreignNames = map[string]string{
	"nil": "null", "None": "null", "undefined": "null", "NULL": "null", "Nil": "null", "none": "null",
	"True": "true", "TRUE": "true", "False": "false", "FALSE": "false",
}

// PlainSyntax words the parser's token sets in plain terms: the set of
// every token that can start an operand ({'[', '{', '(', ..., IDENTIFIER})
// reads "a value", a small set {']', ','} reads ']' or ',', and the end of
// input '<EOF>' reads "the end of the expression". The rest of the
// message, and the caret, stay.
func PlainSyntax(msg string) string {
	msg = operandSet().ReplaceAllStringFunc(msg, func(set string) string {
		if strings.Contains(set, "')'") {
			return "a value or ')'"
		}
		return "a value"
	})
	msg = tokenSet().ReplaceAllStringFunc(msg, func(set string) string {
		return strings.Join(strings.Split(set[1:len(set)-1], ", "), " or ")
	})
	msg = strings.Replace(msg, "mismatched input '<EOF>' expecting", "the expression ends too early, expecting", 1)
	msg = strings.Replace(msg, "at '<EOF>'", "at the end of the expression", 1)
	return strings.Replace(msg, "expecting <EOF>", "expecting the end of the expression", 1)
}

// tokenSet matches a small set of quoted tokens, {']', ','}, which reads
// ']' or ','.
var tokenSet = lazyRegexp(`\{'[^']+'(, '[^']+')*\}`)

// operandSet matches a parser token set that holds every start of an
// operand.
var operandSet = lazyRegexp(`\{[^}]*'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER\}`)

// Syntax names the operators of other languages that CEL spells
// differently, when a failed parse holds one outside its string literals:
// and/or/not, a single = or ===, a pipe, and a lambda arrow. An expression
// wrapped in ${{ }} gets Bare's hint instead.
func Syntax(expr string) string {
	if strings.Contains(expr, "${{") {
		return ""
	}
	code := blankStrings(expr)
	switch {
	case foreignWords().MatchString(code):
		return "; CEL writes &&, || and ! for and, or and not"
	case strings.Contains(code, "=>") || strings.Contains(code, "->"):
		return "; a macro takes a variable name and an expression, not a lambda: xs.filter(x, x > 1)"
	case singleEquals().MatchString(code):
		return "; compare with == (CEL has no = or ===)"
	case singlePipe().MatchString(code):
		return "; CEL has no pipes: call a function or a method, e.g. s.upperAscii(), and write || for or"
	}
	return ""
}

var (
	foreignWords = lazyRegexp(`(^|[^\w.])(and|or|not)([^\w(]|$)`)
	singleEquals = lazyRegexp(`(^|[^=!<>~])=([^=]|$)|===`)
	singlePipe   = lazyRegexp(`(^|[^|])\|([^|]|$)`)
)

// blankStrings replaces the contents of the string literals in expr with
// spaces, so that only code is searched.
func blankStrings(expr string) string {
	b := []byte(expr)
	for i := 0; i < len(b); i++ {
		if b[i] != '\'' && b[i] != '"' {
			continue
		}
		end, err := lex.SkipString(expr, i, i, false)
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

// Size points a field read such as xs.length at size().
func Size(field string) string {
	switch field {
	case "length", "len", "size", "count":
		return "; write size(x) for its length"
	}
	return ""
}

// lazyRegexp compiles expr on first use, not while the program starts:
// most launches never word a hint.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
