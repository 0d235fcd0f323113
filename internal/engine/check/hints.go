package check

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
)

// Check's messages carry the hints a render's do: the name in scope that
// an unknown name is probably a slip for, the CEL spelling of another
// language's function, and how a directive takes its expression.

// namesScope is a scope that binds names to nothing, for the hint
// functions that read the names in scope.
func namesScope(names []string) *scope.Scope {
	sc := scope.New(nil, len(names))
	for _, n := range names {
		sc.Bind(n, nil)
	}
	return sc
}

// checkCompileMsg is a CEL compile error as a render words it.
func checkCompileMsg(msg string, names []string, bare string, entry bool, text string) string {
	out, hinted := walk.Explain(msg, namesScope(names))
	if !hinted {
		out += hint.Bare(bare, entry, text, msg)
	}
	return out
}

// undeclaredMsg says that name is declared nowhere, with the hint a
// render gives for a name that is not in scope.
func undeclaredMsg(name string, names []string, bare string, entry bool, text string) string {
	msg := tree.Quote(name) + " is not declared: no $let, $for or $schema in scope and no values file (-f) declares it"
	if s := walk.ClosestName(name, namesScope(names)); s != "" {
		return msg + "; did you mean '" + s + "'?"
	}
	if w, ok := hint.ForeignName(name); ok {
		return msg + "; CEL writes " + w
	}
	return msg + hint.Bare(bare, entry, text, "no such attribute(s): "+name)
}

// unknownCall reports a call to a function that does not exist, which a
// render reports when it evaluates the expression.
func (ck *checker) unknownCall(prog *celenv.Program, report func(msg string, off int)) {
	if msg, off := prog.UnknownCall(); msg != "" {
		report(msg, off)
	}
}
