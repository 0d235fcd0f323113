package walk

import (
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv"
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
	exact *exprRef // set when the string is exactly one segment
}

type textPart struct {
	lit  string
	expr *exprRef // nil for a literal part
}

func compileText(n *yaml.Node, path, what string) (*textTemplate, *compileError) {
	s, ok := stringScalar(n)
	n = deref(n)
	if !ok {
		return nil, cerr(n, path, what+" takes a string with ${{ }} expressions, got "+yamlnode.AKind(n))
	}
	segs, xerr := scanSegments(s)
	if xerr != nil {
		return nil, &compileError{node: n, path: path, msg: xerr.Msg, expr: s, offset: xerr.Offset}
	}
	t := &textTemplate{node: n, path: path}
	nexpr := 0
	blank := true
	for _, sg := range segs {
		if sg.expr {
			nexpr++
			t.parts = append(t.parts, textPart{expr: newExprRef(exprRef{text: sg.text, shown: s, off: sg.off, node: n, path: path})})
			continue
		}
		if strings.TrimSpace(sg.text) != "" {
			blank = false
		}
		t.parts = append(t.parts, textPart{lit: sg.text})
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
func (r *renderer) renderText(t *textTemplate, sc *scope, fr *frame) (string, bool, error) {
	if len(t.parts) == 1 && t.parts[0].expr == nil {
		return t.parts[0].lit, false, nil
	}
	var b strings.Builder
	for _, p := range t.parts {
		if p.expr == nil {
			b.WriteString(p.lit)
			continue
		}
		s, unknown, err := r.segmentText(p.expr, t, sc, fr)
		if err != nil || unknown {
			return "", unknown, err
		}
		b.WriteString(s)
		if b.Len() > r.e.opts.MaxOutputBytes {
			return "", false, r.limitErr(fr, t.node, t.path, "MaxOutputBytes", "the string built here is larger than MaxOutputBytes ("+itoa(r.e.opts.MaxOutputBytes)+" bytes)")
		}
	}
	return b.String(), false, nil
}

// segmentText gives the text of one ${{ }} segment of t; unknown reports an
// unknown value. A name or field chain holding an engine string is that
// string, with no trip through CEL values.
func (r *renderer) segmentText(x *exprRef, t *textTemplate, sc *scope, fr *frame) (string, bool, error) {
	var v ref.Val
	if fv, ok := r.fastValue(x.fast, sc); ok {
		if s, ok := fv.(string); ok {
			return s, false, nil
		}
		v = celenv.ToCEL(fv)
	} else {
		var err error
		if v, err = r.evalExpr(x, sc, fr); err != nil {
			return "", false, err
		}
	}
	if _, ok := v.(*types.Unknown); ok {
		return "", true, nil
	}
	s, err := celenv.Stringify(v)
	if err != nil {
		return "", false, &Error{Pos: Pos{File: fr.file, Line: t.node.Line, Column: t.node.Column}, Path: t.path,
			Msg: err.Error(), Expr: x.shown, Offset: x.off, Chain: fr.chain}
	}
	return s, false, nil
}

type evalDir struct {
	key *yaml.Node
	t   *textTemplate
}

func compileEval(key, n *yaml.Node, path string) (producer, *compileError) {
	t, err := compileText(n, path, "$eval")
	if err != nil {
		return nil, err
	}
	return &evalDir{key: key, t: t}, nil
}

func (d *evalDir) keyNode() *yaml.Node { return d.key }
func (d *evalDir) name() string        { return "$eval" }

func (d *evalDir) value(r *renderer, sc *scope, fr *frame) (Value, bool, error) {
	t := d.t
	if t.exact == nil {
		s, unknown, err := r.renderText(t, sc, fr)
		if err != nil {
			return nil, false, err
		}
		if unknown {
			// Mixed text is a string whatever its segments turn out to be.
			return Unknown{Type: TypeString}, true, nil
		}
		if err := r.count(fr, t.node, t.path, 1, len(s)); err != nil {
			return nil, false, err
		}
		return s, true, nil
	}
	if t.exact.fast != nil {
		// `${{ name }}`, `${{ svc.name }}`: read the engine value itself,
		// with no trip through CEL values and back.
		if out, ok := r.fastValue(t.exact.fast, sc); ok {
			return r.countExact(fr, t, out)
		}
	}
	v, err := r.evalExpr(t.exact, sc, fr)
	if err != nil {
		return nil, false, err
	}
	out, present, cerr := celenv.FromCELOutput(v)
	if cerr != nil {
		return nil, false, r.resultErr(fr, t.exact, cerr)
	}
	if !present {
		return nil, false, nil
	}
	return r.countExact(fr, t, out)
}

// countExact counts the value an exact segment gives against the render's
// limits, with its real size (countValue).
func (r *renderer) countExact(fr *frame, t *textTemplate, out Value) (Value, bool, error) {
	if err := r.countValue(fr, t.node, t.path, out); err != nil {
		return nil, false, err
	}
	return out, true, nil
}

// multi gives one item (or document), or nothing.
func (d *evalDir) multi(r *renderer, sc *scope, fr *frame, _ position, dst []Value) ([]Value, error) {
	v, ok, err := d.value(r, sc, fr)
	return appendIf(dst, v, ok, err)
}

func init() {
	register(directive{rank: 100, name: "$eval", kind: dirProducer,
		produce: func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError) {
			return compileEval(p.k, p.v, joinPath(path, "$eval"))
		}})
}
