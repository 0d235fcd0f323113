package walk

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/lex"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// $let binds variables for the mapping and everything below it. Entries
// bind in order and each sees the ones before it. A string is a CEL
// expression; anything else is rendered as a template and bound as data.

type letEntry struct {
	name string
	key  *yaml.Node
	expr *exprRef // a string entry
	body tnode    // any other entry
	path string
}

// lets is a compiled $let: its entries, in order.
type lets []letEntry

// compileLet compiles $let; a $let without entries gives nil.
func (c *compiler) compileLet(key, n *yaml.Node, path string) (prelude, *compileError) {
	l, err := c.bindings(key, n, path, "$let takes a mapping from variable names to expressions", true)
	if err != nil || len(l) == 0 {
		return nil, err
	}
	return lets(l), nil
}

func (l lets) run(r *renderer, sc *scope, fr *frame) (*scope, bool, error) {
	sc, err := r.bindLets(l, sc, fr)
	return sc, false, err
}

// bindings compiles the entries of $let or $with: a mapping from variable
// names to values. With exprs, a string value is a CEL expression;
// otherwise every value is a template. A value that is not a mapping is an
// error at the node at.
func (c *compiler) bindings(at, n *yaml.Node, path, what string, exprs bool) ([]letEntry, *compileError) {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		return nil, cerr(at, path, what+", got "+yamlnode.AKind(n))
	}
	seen := map[string]*yaml.Node{}
	var out []letEntry
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name, kerr := yamlnode.Key(k)
		if kerr != nil {
			return nil, fromNodeError(kerr, path)
		}
		ep := joinPath(path, name)
		if prev, dup := seen[name]; dup {
			return nil, cerr(k, ep, yamlnode.DupKeyMsg(name, prev))
		}
		seen[name] = k
		if !lex.IsIdent(name) {
			return nil, cerr(k, ep, quote(name)+" is not a valid variable name: use letters, digits and _, not starting with a digit, and not a CEL keyword")
		}
		e := letEntry{name: name, key: k, path: ep}
		if s, ok := stringScalar(v); ok && exprs {
			e.expr = newExprRef(exprRef{text: s, shown: s, node: deref(v), path: ep, bare: "$let"})
		} else {
			t, err := c.node(v, ep)
			if err != nil {
				return nil, err
			}
			e.body = t
		}
		out = append(out, e)
	}
	return out, nil
}

func (r *renderer) bindLets(lets []letEntry, sc *scope, fr *frame) (*scope, error) {
	inner := newScopeCap(sc, len(lets))
	for i := range lets {
		e := &lets[i]
		if e.expr != nil {
			v, err := r.evalExpr(e.expr, inner, fr)
			if err != nil {
				return nil, err
			}
			inner.bind(e.name, v)
			continue
		}
		v, ok, err := r.value(e.body, inner, fr)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // nothing in value position: no binding, outer names stay visible
		}
		inner.bindValue(e.name, v)
	}
	return inner, nil
}

func init() {
	register(directive{rank: 20, name: "$let", kind: dirPrelude, binds: true,
		prelude: func(c *compiler, d dirSet, p kvPair, path string) (prelude, *compileError) {
			return c.compileLet(p.k, p.v, joinPath(path, "$let"))
		}})
}
