package check

import (
	"strings"

	celtypes "github.com/google/cel-go/common/types"
	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/segment"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"go.yaml.in/yaml/v3"
)

// computedPathProblem is what a render will say about an $include whose
// path is computed, `$include: {$eval: "${{ EXPR }}"}` (reference §4
// `$include`: it must give a non-empty string), when the type of EXPR is
// known and is not a string: an int, a bool, a list or a mapping; or "".
// A double is left alone (a NaN or an infinity fails otherwise), as is a
// list or a mapping that may hold one, and an optional (one with a value
// is that value).
func (ck *checker) computedPathProblem(file tree.Node, scope []string) string {
	m, ok := file.(*tree.MapNode)
	if !ok || len(m.Entries) != 1 || len(m.Preludes) != 0 || len(m.Prods) != 1 {
		return ""
	}
	p, ok := m.Prods[0].(tree.Described)
	if !ok {
		return ""
	}
	desc := p.Describe()
	if d := described(ck.e.Table(), desc.Name); d.Kind != tree.KindProducer || d.Exprs != tree.ExprSegments || len(desc.Exprs) == 0 {
		return ""
	}
	text, ok := exactSegment(desc.Exprs[0].Node)
	if !ok {
		return ""
	}
	t, ct, _ := ck.exprType(text, scope)
	if ct == nil || t == nil || holdsDouble(t, 0) {
		return ""
	}
	var kind string
	switch ct.Kind() {
	case celtypes.IntKind:
		kind = "an int"
	case celtypes.BoolKind:
		kind = "a bool"
	case celtypes.ListKind:
		kind = "a list"
	case celtypes.MapKind:
		kind = "a mapping"
	case celtypes.StructKind:
		if !isTypeName(ct.TypeName()) {
			return ""
		}
		kind = "a mapping"
	default:
		return ""
	}
	return "$include takes a file path string, got " + kind
}

// exactSegment gives the expression of an $eval string that is exactly
// one ${{ }} segment, spaces around it allowed: the value keeps the
// expression's type (reference §3 `$eval`).
func exactSegment(n *yaml.Node) (string, bool) {
	s, ok := tree.StringScalar(n)
	if !ok {
		return "", false
	}
	segs, xerr := segment.Scan(s)
	if xerr != nil {
		return "", false
	}
	expr, found := "", 0
	for _, sg := range segs {
		switch {
		case sg.Expr:
			expr, found = sg.Text, found+1
		case strings.TrimSpace(sg.Text) != "":
			return "", false
		}
	}
	return expr, found == 1
}

// holdsDouble reports whether a value of type t may be or hold a double.
func holdsDouble(t *apiservercel.DeclType, depth int) bool {
	switch {
	case depth > 64 || t == apiservercel.DoubleType:
		return true
	case t.IsList() || t.IsMap():
		return holdsDouble(t.ElemType, depth+1)
	case t.IsObject():
		for _, f := range t.Fields {
			if holdsDouble(f.Type, depth+1) {
				return true
			}
		}
	}
	return false
}
