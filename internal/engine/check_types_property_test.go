package engine_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// The property: for random schemas, values they accept and expressions
// over those values, check's type errors and a render's agree. A template
// whose schema types every value it reads (no `number`, which stays dyn)
// and that type-checks never fails at render with a type error (no such
// overload, no such key on a declared field, $for over a scalar, an $if
// that is no bool); and a template that renders has no type error.

type genSchema struct {
	typ   string // string integer number boolean array object
	items *genSchema
	props map[string]*genSchema
}

func (s *genSchema) json() any {
	m := map[string]any{"type": s.typ}
	if s.items != nil {
		m["items"] = s.items.json()
	}
	if s.props != nil {
		ps := map[string]any{}
		for k, p := range s.props {
			ps[k] = p.json()
		}
		m["properties"] = ps
	}
	return m
}

var genNames = []string{"name", "count", "ratio", "enabled", "tags", "image", "ports", "tag"}

func genType(r *rand.Rand, depth int) *genSchema {
	scalars := []string{"string", "integer", "number", "boolean"}
	if r.IntN(2) == 0 {
		scalars = scalars[:2] // half the schemas are typed through and through
	}
	if depth >= 2 || r.IntN(3) > 0 {
		return &genSchema{typ: scalars[r.IntN(len(scalars))]}
	}
	if r.IntN(2) == 0 {
		return &genSchema{typ: "array", items: genType(r, depth+1)}
	}
	s := &genSchema{typ: "object", props: map[string]*genSchema{}}
	for range 1 + r.IntN(3) {
		s.props[genNames[r.IntN(len(genNames))]] = genType(r, depth+1)
	}
	return s
}

func genValue(r *rand.Rand, s *genSchema) any {
	switch s.typ {
	case "string":
		return []string{"a", "web", ""}[r.IntN(3)]
	case "integer":
		return r.IntN(5)
	case "number":
		return []any{1.5, 2, 0.25}[r.IntN(3)]
	case "boolean":
		return r.IntN(2) == 0
	case "array":
		out := []any{}
		for range 1 + r.IntN(2) {
			out = append(out, genValue(r, s.items))
		}
		return out
	}
	out := map[string]any{}
	for k, p := range s.props {
		out[k] = genValue(r, p)
	}
	return out
}

// genPath gives a field chain into s from "v", sometimes misspelt.
func genPath(r *rand.Rand, s *genSchema) string {
	path := "v"
	for s.typ == "object" && r.IntN(4) > 0 {
		k := pickProp(r, s)
		if r.IntN(6) == 0 {
			return path + "." + k + "x"
		}
		path, s = path+"."+k, s.props[k]
	}
	if s.typ == "array" && r.IntN(2) == 0 {
		return path + "[0]"
	}
	return path
}

// genOptional gives an optional read of a declared part of s: its last
// step written .? or [?0], or optional.of(v) when there is none.
func genOptional(r *rand.Rand, s *genSchema) string {
	path := "v"
	for s.typ == "object" && r.IntN(4) > 0 {
		k := pickProp(r, s)
		path, s = path+"."+k, s.props[k]
	}
	switch i := strings.LastIndex(path, "."); {
	case s.typ == "array" && r.IntN(2) == 0:
		return path + "[?0]"
	case i > 0:
		return path[:i] + ".?" + path[i+1:]
	}
	return "optional.of(" + path + ")"
}

func genExpr(r *rand.Rand, s *genSchema) (expr, dir string) {
	a := genPath(r, s)
	b := genPath(r, s)
	lits := []string{"1", "'x'", "1.5", "true"}
	ops := []string{"+", "-", "*", "<", ">="}
	switch r.IntN(11) {
	case 6: // an optional as an operand
		return genOptional(r, s) + " " + ops[r.IntN(len(ops))] + " " + lits[r.IntN(len(lits))], "$eval"
	case 7: // its own methods take any default
		return genOptional(r, s) + ".orValue(" + lits[r.IntN(len(lits))] + ")", "$eval"
	case 8:
		return genOptional(r, s), []string{"$if", "$for", "$assert", "$let"}[r.IntN(4)]
	case 9:
		return "size(" + genOptional(r, s) + ")", "$eval"
	case 10: // a computed $include path
		return a, "$include"
	}
	switch r.IntN(6) {
	case 0:
		return a + " " + ops[r.IntN(len(ops))] + " " + b, "$eval"
	case 1:
		return a + " " + ops[r.IntN(len(ops))] + " " + lits[r.IntN(len(lits))], "$eval"
	case 2:
		return a, "$for"
	case 3:
		return a, "$if"
	case 4:
		return "size(" + a + ")", "$eval"
	}
	return "!" + a, "$eval"
}

func template(schema any, expr, dir string) string {
	sj, _ := json.Marshal(schema)
	q, _ := json.Marshal(expr)
	body := map[string]string{
		"$eval":    fmt.Sprintf("out:\n  $eval: %s\n", mustQuote("${{ "+expr+" }}")),
		"$for":     fmt.Sprintf("out:\n  $for: %s\n  $do: 1\n", mustQuote("e in "+expr)),
		"$if":      fmt.Sprintf("out:\n  $if: %s\n  $then: 1\n  $else: 2\n", q),
		"$assert":  fmt.Sprintf("out:\n  $assert: %s\n", q),
		"$include": fmt.Sprintf("out:\n  $include: {$eval: %s}\n", mustQuote("${{ "+expr+" }}")),
		"$let":     fmt.Sprintf("out:\n  $let: {o: %s}\n  r: {$eval: \"${{ o + 1 }}\"}\n", q),
	}[dir]
	return "$schema:\n  v: " + string(sj) + "\n" + body
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// renderTypeError reports whether a render error is one a type checker
// should have found.
func renderTypeError(err error) bool {
	msg := err.Error()
	for _, s := range []string{"no matching overload", "no such overload", "unsupported", "$for can only iterate", "must be a bool", "no such key"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return includePathType.MatchString(msg)
}

// includePathType matches a render's error for a computed $include path
// of a type that is no string.
var includePathType = regexp.MustCompile(`\$include takes a file path string, got (?:an int|a bool|a list|a mapping)`)

func TestCheckTypes_agreeWithRenderOnRandomSchemasAndValues(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	typed, reported, reportedOptional, reportedInclude := 0, 0, 0, 0
	for i := range 1000 {
		s := genType(r, 0)
		vj, _ := json.Marshal(map[string]any{"v": genValue(r, s)})
		vars, err := decodeVars(vj)
		if err != nil {
			t.Fatal(err)
		}
		expr, dir := genExpr(r, s)
		text := template(s.json(), expr, dir)
		e := engine.New(engine.DefaultOptions())
		src := engine.Source{Name: "t.yaml", Text: []byte(text)}
		problems, _ := e.Check(t.Context(), src, func(n string) bool { return n == "v" })
		var typeErrs []string
		for _, p := range problems {
			if typeProblem(p) {
				typeErrs = append(typeErrs, p.Err.Error())
			}
		}
		_, rerr := e.Render(t.Context(), src, vars)
		switch {
		case len(typeErrs) == 0 && rerr != nil && renderTypeError(rerr) && !strings.Contains(text, "number"):
			t.Errorf("case %d: type-checks but the render fails:\n%s\nvalues %s\n%v", i, text, vj, rerr)
		case len(typeErrs) > 0 && rerr == nil:
			t.Errorf("case %d: a type error but the render succeeds:\n%s\nvalues %s\n%s", i, text, vj, strings.Join(typeErrs, "\n"))
		}
		if len(typeErrs) > 0 {
			reported++
			if strings.Contains(expr, "?") || strings.Contains(expr, "optional.of") {
				reportedOptional++
			}
			if dir == "$include" {
				reportedInclude++
			}
		}
		typed++
	}
	if reported == 0 || reportedOptional == 0 || reportedInclude == 0 {
		t.Fatalf("of %d cases, %d had a type error, %d of them with an optional, %d of an $include path: the generator tests too little", typed, reported, reportedOptional, reportedInclude)
	}
	t.Logf("%d cases, %d with a type error, %d of them with an optional, %d of an $include path", typed, reported, reportedOptional, reportedInclude)
}

// pickProp picks one of the properties of the object schema s, the same
// for the same random source whatever the map's order.
func pickProp(r *rand.Rand, s *genSchema) string {
	keys := make([]string, 0, len(s.props))
	for k := range s.props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys[r.IntN(len(keys))]
}
