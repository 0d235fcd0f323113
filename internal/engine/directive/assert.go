package directive

import (
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// $assert stops the render when a condition is false. The error carries
// $msg, with its ${{ }} segments evaluated, or the expression itself.
// $assert may be one expression or a list, checked in order.

type assertDir struct {
	key   *yaml.Node
	conds []*tree.ExprRef
	msg   *textTemplate
	path  string
}

func compileAssert(key, n, msgNode *yaml.Node, path string) (*assertDir, *tree.CompileError) {
	a := &assertDir{key: key, path: path}
	n = tree.Deref(n)
	switch n.Kind {
	case yaml.ScalarNode:
		s, ok := tree.StringScalar(n)
		if !ok {
			return nil, tree.CompileErrorAt(n, path, "$assert takes a CEL expression string (or a list of them), got "+yamlnode.AKind(n))
		}
		a.conds = append(a.conds, tree.NewExprRef(tree.ExprRef{Text: s, Shown: s, Node: n, Path: path, Bare: "$assert"}))
	case yaml.SequenceNode:
		for i, c := range n.Content {
			s, ok := tree.StringScalar(c)
			ip := path + "[" + tree.Itoa(i) + "]"
			if !ok {
				return nil, tree.CompileErrorAt(c, ip, "each $assert entry must be a CEL expression string, got "+yamlnode.AKind(tree.Deref(c)))
			}
			a.conds = append(a.conds, tree.NewExprRef(tree.ExprRef{Text: s, Shown: s, Node: tree.Deref(c), Path: ip, Bare: "$assert"}))
		}
		if len(a.conds) == 0 {
			return nil, tree.CompileErrorAt(n, path, "$assert has an empty list: give at least one expression")
		}
	default:
		return nil, tree.CompileErrorAt(n, path, "$assert takes a CEL expression string (or a list of them), got "+yamlnode.AKind(n))
	}
	if msgNode != nil {
		t, err := compileText(msgNode, path+".$msg", "$msg")
		if err != nil {
			return nil, err
		}
		a.msg = t
	}
	return a, nil
}

// checkAsserts reports unknown when a condition cannot be decided yet.
func checkAsserts(r tree.PreludeRenderer, a *assertDir, sc *scope.Scope, fr *diag.Frame) (bool, error) {
	for _, c := range a.conds {
		ok, unknown, err := r.EvalBool(c, sc, fr, "$assert")
		if err != nil {
			return false, err
		}
		if unknown {
			return true, nil
		}
		if ok {
			continue
		}
		msg := "assertion failed: " + strings.TrimSpace(c.Text)
		if a.msg != nil {
			text, unknown, err := renderText(r, a.msg, sc, fr)
			if err != nil {
				return false, err
			}
			if unknown {
				return true, nil
			}
			msg = text
		}
		return false, r.ErrAt(fr, c.Node, c.Path, msg)
	}
	return false, nil
}

func (a *assertDir) Run(r tree.PreludeRenderer, sc *scope.Scope, fr *diag.Frame) (*scope.Scope, bool, error) {
	unknown, err := checkAsserts(r, a, sc, fr)
	return sc, unknown, err
}

// Assert gives the directive table's entries of
// $assert and its partner $msg (reference §4 $assert).
func Assert() []tree.Directive {
	return []tree.Directive{
		{Name: "$assert", Kind: tree.KindPrelude,
			Exprs: tree.ExprBareList, Must: tree.MustBool, MustWhat: "$assert", Section: 4,
			Summary: "Stops rendering with an error unless every CEL expression gives true.",
			Prelude: func(c *tree.Compiler, d tree.DirSet, p tree.KVPair, path string) (tree.Prelude, *tree.CompileError) {
				return compileAssert(p.K, p.V, d.Value("$msg"), tree.JoinPath(path, "$assert"))
			}},
		{Name: "$msg", Kind: tree.KindPartner, Needs: "$assert",
			Exprs: tree.ExprSegments, Section: 4,
			Summary: "The error message of a failing $assert, with ${{ }} segments."},
	}
}

// Describe gives the conditions, then the expressions of $msg.
func (a *assertDir) Describe() tree.Description {
	d := tree.Description{Name: "$assert", Key: a.key, Exprs: append([]*tree.ExprRef(nil), a.conds...)}
	if a.msg != nil {
		d.Exprs = append(d.Exprs, a.msg.exprs()...)
	}
	return d
}
