package check

import (
	"regexp"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
)

// Calls that no overload takes (CLI guide, `check`): the checker's error
// is reported, in a render's words, only where a render fails too, for
// every value of the argument types.

// overloadError matches the checker's error for a call no overload of
// its function takes, with the argument types: `(int, string)` for a
// global call, `string.(int)` for a member call on a string.
var overloadError = regexp.MustCompile(`^found no matching overload for '([^']+)' applied to '(.*)'$`)

// overloadProblem is the problem of the checker's error msg when it is
// a call that fails at render, or "".
func overloadProblem(msg string) string {
	m := overloadError.FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	fn, member := m[1], false
	var args []string
	switch recv, rest, ok := splitMember(m[2]); {
	case ok:
		member, args = true, append([]string{recv}, splitTypes(rest)...)
	case strings.HasPrefix(m[2], "(") && strings.HasSuffix(m[2], ")"):
		args = splitTypes(m[2][1 : len(m[2])-1])
	default:
		return ""
	}
	args = shortTypes(args)
	if !renderFails(fn, member, args) {
		return ""
	}
	return "no matching overload for " + signature(fn, member, args) + hint.Overload(fn, args)
}

// splitMember splits a member call's types, `RECEIVER.(ARGS)`, at the
// dot outside any parentheses.
func splitMember(s string) (recv, args string, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '.':
			if depth == 0 && strings.HasPrefix(s[i:], ".(") && strings.HasSuffix(s, ")") && i > 0 {
				return s[:i], s[i+2 : len(s)-1], true
			}
		}
	}
	return "", "", false
}

// scalarType matches the types of the values that a render holds as
// exactly that type, and the optional, which no function but the
// optional's own takes.
var scalarType = regexp.MustCompile(`^(?:int|uint|double|string|bool|bytes|null_type|optional_type|google\.protobuf\.Timestamp|google\.protobuf\.Duration)$`)

// optionalMethods are the optional's own methods: on an optional they
// work at render whatever the type of their argument (the checker wants
// `optional(T).orValue(T)`, a render takes any value).
var optionalMethods = map[string]bool{"hasValue": true, "value": true, "orValue": true, "or": true,
	"optMap": true, "optFlatMap": true}

// renderFails reports whether a call of fn with arguments of the types
// args (a member call's receiver first) fails at render as it fails the
// checker: every argument is a scalar or an optional, or an operator
// (arithmetic, ordering, ! and unary -) meets a list or a map (a schema's
// object is a map at render), which none of them takes but + of two
// lists; the conditional fails when its condition is no bool. Equality,
// in, indexing (optional or not), && and || (which absorb an error when
// the other side decides) and the rest of the conditional work at render
// whatever the types; an optional's own methods on an optional take any
// argument; a dyn argument may be anything.
func renderFails(fn string, member bool, args []string) bool {
	switch {
	case fn == "_==_" || fn == "_!=_" || fn == "@in" || fn == "_[_]" || fn == "_[?_]" || fn == "_&&_" || fn == "_||_":
		return false
	case fn == "_?_:_":
		return len(args) == 3 && args[0] != "bool" && (scalarType.MatchString(args[0]) || args[0] == "list" || args[0] == "map")
	case member && optionalMethods[fn] && len(args) > 0 && args[0] == "optional_type":
		return false
	}
	operator := binaryOperators[fn] != "" || fn == "!_" || fn == "-_"
	lists := 0
	for _, a := range args {
		switch {
		case scalarType.MatchString(a):
		case (a == "list" || a == "map") && operator:
			if a == "list" {
				lists++
			}
		default:
			return false
		}
	}
	return !(fn == "_+_" && lists == 2)
}

// binaryOperators are the operators as a render names them.
var binaryOperators = map[string]string{"_+_": "+", "_-_": "-", "_*_": "*", "_/_": "/", "_%_": "%",
	"_<_": "<", "_<=_": "<=", "_>_": ">", "_>=_": ">="}

// signature shows a call by its argument types, as a render does:
// `int + double`, `size(bool)`, `optional_type.size()`,
// `string ? … : …`.
func signature(fn string, member bool, args []string) string {
	if sym, ok := binaryOperators[fn]; ok && len(args) == 2 {
		return args[0] + " " + sym + " " + args[1]
	}
	if (fn == "!_" || fn == "-_") && len(args) == 1 {
		return fn[:1] + args[0]
	}
	if fn == "_?_:_" && len(args) == 3 {
		return args[0] + " ? … : …"
	}
	if member && len(args) > 0 {
		return args[0] + "." + fn + "(" + strings.Join(args[1:], ", ") + ")"
	}
	return fn + "(" + strings.Join(args, ", ") + ")"
}

// splitTypes splits a checker's list of argument types at its top-level
// commas.
func splitTypes(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// shortTypes names types as a render does: list, map and optional_type
// without their parameters, a schema's object as the map it is.
func shortTypes(ts []string) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		if strings.HasPrefix(t, typeNamePrefix) {
			t = "map"
		} else if j := strings.IndexByte(t, '('); j > 0 {
			t = t[:j]
		}
		out[i] = t
	}
	return out
}
