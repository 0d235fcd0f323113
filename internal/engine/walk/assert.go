package walk

import (
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// $assert stops the render when a condition is false. The error carries
// $msg, with its ${{ }} segments evaluated, or the expression itself.
// $assert may be one expression or a list, checked in order.

type assertDir struct {
	key   *yaml.Node
	conds []*exprRef
	msg   *textTemplate
	path  string
}

func compileAssert(key, n, msgNode *yaml.Node, path string) (*assertDir, *compileError) {
	a := &assertDir{key: key, path: path}
	n = deref(n)
	switch n.Kind {
	case yaml.ScalarNode:
		s, ok := stringScalar(n)
		if !ok {
			return nil, cerr(n, path, "$assert takes a CEL expression string (or a list of them), got "+yamlnode.AKind(n))
		}
		a.conds = append(a.conds, newExprRef(exprRef{text: s, shown: s, node: n, path: path, bare: "$assert"}))
	case yaml.SequenceNode:
		for i, c := range n.Content {
			s, ok := stringScalar(c)
			ip := path + "[" + itoa(i) + "]"
			if !ok {
				return nil, cerr(c, ip, "each $assert entry must be a CEL expression string, got "+yamlnode.AKind(deref(c)))
			}
			a.conds = append(a.conds, newExprRef(exprRef{text: s, shown: s, node: deref(c), path: ip, bare: "$assert"}))
		}
		if len(a.conds) == 0 {
			return nil, cerr(n, path, "$assert has an empty list: give at least one expression")
		}
	default:
		return nil, cerr(n, path, "$assert takes a CEL expression string (or a list of them), got "+yamlnode.AKind(n))
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
func (r *renderer) checkAsserts(a *assertDir, sc *scope, fr *frame) (bool, error) {
	for _, c := range a.conds {
		ok, unknown, err := r.evalBool(c, sc, fr, "$assert")
		if err != nil {
			return false, err
		}
		if unknown {
			return true, nil
		}
		if ok {
			continue
		}
		msg := "assertion failed: " + strings.TrimSpace(c.text)
		if a.msg != nil {
			text, unknown, err := r.renderText(a.msg, sc, fr)
			if err != nil {
				return false, err
			}
			if unknown {
				return true, nil
			}
			msg = text
		}
		return false, r.errAt(fr, c.node, c.path, msg)
	}
	return false, nil
}

func (a *assertDir) run(r *renderer, sc *scope, fr *frame) (*scope, bool, error) {
	unknown, err := r.checkAsserts(a, sc, fr)
	return sc, unknown, err
}

func init() {
	register(directive{rank: 30, name: "$assert", kind: dirPrelude,
		prelude: func(c *compiler, d dirSet, p kvPair, path string) (prelude, *compileError) {
			return compileAssert(p.k, p.v, d.value("$msg"), joinPath(path, "$assert"))
		}})
	register(directive{rank: 40, name: "$msg", kind: dirPartner, needs: "$assert"})
}
