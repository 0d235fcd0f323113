package celenv

import (
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv/celval"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/lex"
)

// Static typing, for `celyaml check`: CEL's checker run over an
// expression as the engine plans it, with the variables given types.

// TypedEnv is the engine's environment extended with the options extend
// gives for it: the variables, each with a type, and the types they use.
func (c *Cache) TypedEnv(extend func(base *cel.Env) ([]cel.EnvOption, error)) (*cel.Env, error) {
	if err := c.init(); err != nil {
		return nil, err
	}
	opts, err := extend(c.env.env)
	if err != nil {
		return nil, err
	}
	return c.env.env.Extend(opts...)
}

// TypeCheck runs CEL's checker over the expression as the engine plans it
// (a bare map key that names no variable read as a string), in env, an
// environment from TypedEnv that declares every name the expression
// reads. It gives the expression's type, or the checker's errors, each
// positioned in the expression.
func (p *Program) TypeCheck(env *cel.Env) (*types.Type, []Error) {
	pe, err := celast.ExprToProto(p.ast.Expr())
	if err != nil {
		return nil, []Error{{Msg: celval.Sanitize(err.Error()), Offset: -1}}
	}
	si, err := celast.SourceInfoToProto(p.ast.SourceInfo())
	if err != nil {
		return nil, []Error{{Msg: celval.Sanitize(err.Error()), Offset: -1}}
	}
	parsed := cel.ParsedExprToAstWithSource(&exprpb.ParsedExpr{Expr: pe, SourceInfo: si}, common.NewTextSource(p.expr))
	checked, iss := env.Check(parsed)
	if iss != nil && iss.Err() != nil {
		var out []Error
		for _, e := range iss.Errors() {
			off := -1
			if loc := e.Location; loc != nil && loc.Line() > 0 {
				off = lineColOffset(p.expr, loc.Line(), loc.Column())
			}
			out = append(out, Error{Msg: e.Message, Offset: off})
		}
		return nil, out
	}
	return checked.OutputType(), nil
}

// PlainName gives the name that text reads when it is a name alone
// (spaces around it allowed), which a render reads without CEL: not a
// keyword, a literal or the name of a type. A checker then knows the
// expression's type without parsing it: the name's.
func (c *Cache) PlainName(text string) (string, bool) {
	name := strings.TrimSpace(text)
	if !lex.IsIdent(name) || c.init() != nil {
		return "", false
	}
	if _, isType := c.env.env.CELTypeProvider().FindIdent(name); isType {
		return "", false
	}
	return name, true
}
