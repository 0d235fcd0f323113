package directive

import (
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/segment"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"go.yaml.in/yaml/v3"
)

// $eval evaluates the ${{ }} segments of a string at render time. A string
// that is exactly one segment (spaces around it allowed) keeps the
// expression's type; otherwise each segment is turned into text and joined
// with the literal parts. $${{ stands for a literal ${{.

// textTemplate is a string with ${{ }} segments.
type textTemplate struct {
	node  *yaml.Node
	path  string
	parts []textPart
	exact *tree.ExprRef // set when the string is exactly one segment
}

type textPart struct {
	lit  string
	expr *tree.ExprRef // nil for a literal part
}

func compileText(n *yaml.Node, path, what string) (*textTemplate, *tree.CompileError) {
	s, ok := tree.StringScalar(n)
	n = tree.Deref(n)
	if !ok {
		return nil, tree.CompileErrorAt(n, path, what+" takes a string with ${{ }} expressions, got "+yamlnode.AKind(n))
	}
	segs, xerr := segment.Scan(s)
	if xerr != nil {
		return nil, &tree.CompileError{Node: n, Path: path, Msg: xerr.Msg, Expr: s, Offset: xerr.Offset}
	}
	t := &textTemplate{node: n, path: path}
	nexpr := 0
	blank := true
	for _, sg := range segs {
		if sg.Expr {
			nexpr++
			t.parts = append(t.parts, textPart{expr: tree.NewExprRef(tree.ExprRef{Text: sg.Text, Shown: s, Off: sg.Off, Node: n, Path: path})})
			continue
		}
		if strings.TrimSpace(sg.Text) != "" {
			blank = false
		}
		t.parts = append(t.parts, textPart{lit: sg.Text})
	}
	if nexpr == 1 && blank {
		for _, p := range t.parts {
			if p.expr != nil {
				t.exact = p.expr
			}
		}
	}
	return t, nil
}

// renderText renders every part as text and joins them.
func renderText(r tree.PreludeRenderer, t *textTemplate, sc *scope.Scope, fr *diag.Frame) (string, bool, error) {
	if len(t.parts) == 1 && t.parts[0].expr == nil {
		return t.parts[0].lit, false, nil
	}
	var b strings.Builder
	for _, p := range t.parts {
		if p.expr == nil {
			b.WriteString(p.lit)
			continue
		}
		s, unknown, err := segmentText(r, p.expr, t, sc, fr)
		if err != nil || unknown {
			return "", unknown, err
		}
		b.WriteString(s)
		if b.Len() > r.Options().MaxOutputBytes {
			return "", false, r.LimitErr(fr, t.node, t.path, "MaxOutputBytes", "the string built here is larger than MaxOutputBytes ("+tree.Itoa(r.Options().MaxOutputBytes)+" bytes)")
		}
	}
	return b.String(), false, nil
}

// segmentText gives the text of one ${{ }} segment of t; unknown reports an
// unknown value. A name or field chain holding an engine string is that
// string, with no trip through CEL values.
func segmentText(r tree.Evaluator, x *tree.ExprRef, t *textTemplate, sc *scope.Scope, fr *diag.Frame) (string, bool, error) {
	var v ref.Val
	if fv, ok := r.FastValue(x.Fast, sc); ok {
		if s, ok := fv.(string); ok {
			return s, false, nil
		}
		v = celenv.ToCEL(fv)
	} else {
		var err error
		if v, err = r.EvalExpr(x, sc, fr); err != nil {
			return "", false, err
		}
	}
	if _, ok := v.(*types.Unknown); ok {
		return "", true, nil
	}
	s, err := celenv.Stringify(v)
	if err != nil {
		return "", false, &diag.Error{Pos: diag.Pos{File: fr.File, Line: t.node.Line, Column: t.node.Column}, Path: t.path,
			Msg: err.Error(), Expr: x.Shown, Offset: x.Off, Chain: fr.Chain}
	}
	return s, false, nil
}

type evalDir struct {
	key *yaml.Node
	t   *textTemplate
}

func compileEval(key, n *yaml.Node, path string) (tree.Producer, *tree.CompileError) {
	t, err := compileText(n, path, "$eval")
	if err != nil {
		return nil, err
	}
	return &evalDir{key: key, t: t}, nil
}

func (d *evalDir) KeyNode() *yaml.Node { return d.key }
func (d *evalDir) Name() string        { return "$eval" }

func (d *evalDir) Value(r tree.ContentRenderer, sc *scope.Scope, fr *diag.Frame) (value.Value, bool, error) {
	t := d.t
	if t.exact == nil {
		s, unknown, err := renderText(r, t, sc, fr)
		if err != nil {
			return nil, false, err
		}
		if unknown {
			// Mixed text is a string whatever its segments turn out to be.
			return value.UnknownOf(value.TypeString), true, nil
		}
		if err := r.Count(fr, t.node, t.path, 1, len(s)); err != nil {
			return nil, false, err
		}
		return s, true, nil
	}
	if t.exact.Fast != nil {
		// `${{ name }}`, `${{ svc.name }}`: read the engine value itself,
		// with no trip through CEL values and back.
		if out, ok := r.FastValue(t.exact.Fast, sc); ok {
			return countExact(r, fr, t, out)
		}
	}
	v, err := r.EvalExpr(t.exact, sc, fr)
	if err != nil {
		return nil, false, err
	}
	out, present, cerr := celenv.FromCELOutput(v)
	if cerr != nil {
		return nil, false, r.ResultErr(fr, t.exact, cerr)
	}
	if !present {
		return nil, false, nil
	}
	return countExact(r, fr, t, out)
}

// countExact counts the value an exact segment gives against the render's
// limits, with its real size (countValue).
func countExact(r tree.Budget, fr *diag.Frame, t *textTemplate, out value.Value) (value.Value, bool, error) {
	if err := r.CountValue(fr, t.node, t.path, out); err != nil {
		return nil, false, err
	}
	return out, true, nil
}

// Multi gives one item (or document), or nothing.
func (d *evalDir) Multi(r tree.ContentRenderer, sc *scope.Scope, fr *diag.Frame, _ tree.Position, dst []value.Value) ([]value.Value, error) {
	v, ok, err := d.Value(r, sc, fr)
	return tree.AppendIf(dst, v, ok, err)
}

// Eval gives the directive table's entries of $eval (reference §3 $eval).
func Eval() []tree.Directive {
	return []tree.Directive{
		{Name: "$eval", Kind: tree.KindProducer,
			Exprs: tree.ExprSegments, Section: 3,
			Summary: "A string whose ${{ }} CEL segments are evaluated; one segment alone keeps the value's type.",
			Produce: func(c *tree.Compiler, d tree.DirSet, p tree.KVPair, path string) (tree.Producer, *tree.CompileError) {
				return compileEval(p.K, p.V, tree.JoinPath(path, "$eval"))
			}},
	}
}

// exprs are the ${{ }} expressions of a text, in order.
func (t *textTemplate) exprs() []*tree.ExprRef {
	var out []*tree.ExprRef
	for _, p := range t.parts {
		if p.expr != nil {
			out = append(out, p.expr)
		}
	}
	return out
}

// Describe gives the ${{ }} expressions of the string.
func (e *evalDir) Describe() tree.Description {
	return tree.Description{Name: "$eval", Key: e.key, Exprs: e.t.exprs()}
}
