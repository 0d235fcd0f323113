package directive

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/lex"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// $let binds variables for the mapping and everything below it. Entries
// bind in order and each sees the ones before it. A string is a CEL
// expression; anything else is rendered as a template and bound as data.

type letEntry struct {
	name string
	key  *yaml.Node
	expr *tree.ExprRef // a string entry
	body tree.Node     // any other entry
	path string
}

// lets is a compiled $let: its key and its entries, in order.
type lets struct {
	key     *yaml.Node
	entries []letEntry
}

// compileLet compiles $let; a $let without entries gives nil.
func compileLet(c *tree.Compiler, key, n *yaml.Node, path string) (tree.Prelude, *tree.CompileError) {
	l, err := bindings(c, key, n, path, "$let takes a mapping from variable names to expressions", true)
	if err != nil || len(l) == 0 {
		return nil, err
	}
	return &lets{key: key, entries: l}, nil
}

func (l *lets) Run(r tree.PreludeRenderer, sc *scope.Scope, fr *diag.Frame) (*scope.Scope, bool, error) {
	sc, err := bindLets(r, l.entries, sc, fr)
	return sc, false, err
}

// bindings compiles the entries of $let or $with: a mapping from variable
// names to values. With exprs, a string value is a CEL expression;
// otherwise every value is a template. A value that is not a mapping is an
// error at the node at.
func bindings(c *tree.Compiler, at, n *yaml.Node, path, what string, exprs bool) ([]letEntry, *tree.CompileError) {
	n = tree.Deref(n)
	if n.Kind != yaml.MappingNode {
		return nil, tree.CompileErrorAt(at, path, what+", got "+yamlnode.AKind(n))
	}
	seen := map[string]*yaml.Node{}
	var out []letEntry
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name, kerr := yamlnode.Key(k)
		if kerr != nil {
			return nil, tree.FromNodeError(kerr, path)
		}
		ep := tree.JoinPath(path, name)
		if prev, dup := seen[name]; dup {
			return nil, tree.CompileErrorAt(k, ep, yamlnode.DupKeyMsg(name, prev))
		}
		seen[name] = k
		if !lex.IsIdent(name) {
			return nil, tree.CompileErrorAt(k, ep, tree.Quote(name)+" is not a valid variable name: use letters, digits and _, not starting with a digit, and not a CEL keyword")
		}
		e := letEntry{name: name, key: k, path: ep}
		if s, ok := tree.StringScalar(v); ok && exprs {
			e.expr = tree.NewExprRef(tree.ExprRef{Text: s, Shown: s, Node: tree.Deref(v), Path: ep, Bare: "$let"})
		} else {
			t, err := c.Compile(v, ep)
			if err != nil {
				return nil, err
			}
			e.body = t
		}
		out = append(out, e)
	}
	return out, nil
}

func bindLets(r tree.PreludeRenderer, lets []letEntry, sc *scope.Scope, fr *diag.Frame) (*scope.Scope, error) {
	inner := scope.New(sc, len(lets))
	for i := range lets {
		e := &lets[i]
		if e.expr != nil {
			v, err := r.EvalExpr(e.expr, inner, fr)
			if err != nil {
				return nil, err
			}
			inner.Bind(e.name, v)
			continue
		}
		v, ok, err := r.Value(e.body, inner, fr)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // nothing in value position: no binding, outer names stay visible
		}
		inner.BindValue(e.name, v)
	}
	return inner, nil
}

// Let gives the directive table's entries of
// $let, the prelude that binds names (reference §4 $let).
func Let() []tree.Directive {
	return []tree.Directive{
		{Name: "$let", Kind: tree.KindPrelude, Binds: true,
			Exprs: tree.ExprEntries, Bound: tree.BindEntries, BoundKind: "let", Section: 4,
			Summary: "Binds variables for this mapping, in order: a string entry is a bare CEL expression, any other a template.",
			Prelude: func(c *tree.Compiler, d tree.DirSet, p tree.KVPair, path string) (tree.Prelude, *tree.CompileError) {
				return compileLet(c, p.K, p.V, tree.JoinPath(path, "$let"))
			}},
	}
}

// Describe gives the entries' expressions, the names they bind and the
// entries written as templates, in order (reference §4 $let).
func (l *lets) Describe() tree.Description {
	d := tree.Description{Name: "$let", Key: l.key}
	d.Exprs, d.Binds, d.Bodies = entries(l.entries)
	return d
}

// entries describes the entries of a $let or a $with.
func entries(es []letEntry) (exprs []*tree.ExprRef, binds []tree.BoundName, bodies []tree.Body) {
	for i := range es {
		e := &es[i]
		binds = append(binds, tree.BoundName{Name: e.name, Node: e.key})
		if e.expr != nil {
			exprs = append(exprs, e.expr)
		} else {
			bodies = append(bodies, tree.Body{Key: e.key, Name: e.name, Node: e.body})
		}
	}
	return exprs, binds, bodies
}
