package engine_test

import (
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// TestCheck_findsWhatRenderFindsBeforeEvaluating walks every error case of
// the golden corpus. Where render reports its error before evaluating any
// expression, check must report the same message at the same position.
// The other cases are classified, not skipped: check finds some of them
// without rendering (CEL syntax, names nothing declares, included files);
// the rest only a render finds, which `celyaml check` runs with the values
// given, or alone when every input has a default.
func TestCheck_findsWhatRenderFindsBeforeEvaluating(t *testing.T) {
	classes := map[string][]string{}
	for _, c := range loadGoldenCases(t) {
		want, ok := c.section(secError)
		if !ok {
			continue
		}
		opts := c.options(t)
		var err error
		vars := map[string]value.Value{}
		data, given := c.section(secVars)
		if given {
			if vars, err = decodeVars(data); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		e := engine.New(opts)
		ctx := t.Context()
		src, err := e.LoadFile(ctx, secTemplate)
		if err != nil {
			var le *engine.Error
			if errors.As(err, &le) && samePlaceAndWords(le, strings.TrimSuffix(string(want), "\n")) {
				classes["reading the template: check reports it"] = append(classes["reading the template: check reports it"], c.name)
				continue
			}
			t.Fatalf("%s: %v", c.name, err)
		}
		declared := func(n string) bool { _, ok := vars[n]; return ok }
		problems, _ := e.Check(ctx, src, declared)
		wantText := strings.TrimSuffix(string(want), "\n")
		found := hasProblem(problems, wantText)
		compileErr := engine.CompileTimeError(ctx, e, secTemplate)
		var class string
		switch {
		case compileErr != nil:
			class = "compile time: check reports it"
			if !found {
				t.Errorf("%s: render reports before evaluating:\n%s\ncheck reports:\n%s", c.name, wantText, problemLines(problems))
			}
		case found:
			class = "evaluation, but check reports it without rendering"
		case given || len(e.InputsWithoutDefault(src, declared)) == 0:
			class = "evaluation: check renders it, every input having a default"
			var withVars map[string]value.Value
			if given {
				class, withVars = "evaluation: check renders it with the values given (-f)", vars
			}
			rendered, _ := e.CheckRender(ctx, src, withVars, nil)
			if !hasProblem(rendered, wantText) {
				t.Errorf("%s: a render reports:\n%s\ncheck reports:\n%s", c.name, wantText, problemLines(rendered))
			}
		default:
			class = "evaluation: only a render with values finds it, and check was given none"
		}
		classes[class] = append(classes[class], c.name)
	}
	names := make([]string, 0, len(classes))
	for k := range classes {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		t.Logf("%s (%d): %s", k, len(classes[k]), strings.Join(classes[k], " "))
	}
	if len(classes["compile time: check reports it"]) == 0 {
		t.Error("no error case is found at compile time: the classification is broken")
	}
}

// samePlaceAndWords reports whether e is the error whose text is want:
// its position, directive path and message, before the lines that show
// the expression and the include chain. A name that nothing declares is
// the same finding in check's words and the render's.
func samePlaceAndWords(e *engine.Error, want string) bool {
	head := e.Pos.String() + ": "
	if e.Path != "" {
		head += e.Path + ": "
	}
	rest, ok := strings.CutPrefix(want, head+e.Msg)
	if ok && (rest == "" || rest[0] == '\n') {
		return true
	}
	// A name nothing declares: check says so in its own words, with the
	// render's hint.
	name, hint, isName := strings.Cut(strings.TrimPrefix(e.Msg, `"`), `" is not declared: no $let, $for or $schema in scope and no values file (-f) declares it`)
	if !isName {
		return false
	}
	rest, ok = strings.CutPrefix(want, head+"undeclared reference to '"+name+"': no variable of that name is in scope"+hint)
	return ok && (rest == "" || rest[0] == '\n')
}

// hasProblem reports whether ps holds the error whose text is want.
func hasProblem(ps []engine.Problem, want string) bool {
	for _, p := range ps {
		if !p.Warning && samePlaceAndWords(p.Err, want) {
			return true
		}
	}
	return false
}

func problemLines(ps []engine.Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Err.Error())
		b.WriteString("\n")
	}
	return b.String()
}
