package directive

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/schema"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"go.yaml.in/yaml/v3"
)

// What each compiled directive holds, for the readers of a template that
// do not render it (tree.Described): its key, its CEL expressions, the
// names it binds and its bodies, as it compiled them.

var (
	_ tree.Described = (*lets)(nil)
	_ tree.Described = (*assertDir)(nil)
	_ tree.Described = (*schemaDir)(nil)
	_ tree.Described = (*forDir)(nil)
	_ tree.Described = (*ifDir)(nil)
	_ tree.Described = (*evalDir)(nil)
	_ tree.Described = (*kvDir)(nil)
	_ tree.Described = (*includeDir)(nil)
	_ tree.Described = (*chartNode)(nil)
)

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

// Describe gives the conditions, then the expressions of $msg.
func (a *assertDir) Describe() tree.Description {
	d := tree.Description{Name: "$assert", Key: a.key, Exprs: append([]*tree.ExprRef(nil), a.conds...)}
	if a.msg != nil {
		d.Exprs = append(d.Exprs, a.msg.exprs()...)
	}
	return d
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

// Set is the compiled schemas, each variable's as written, and the
// files they include: what an editor shows of a variable.
func (s *schemaDir) Set() *schema.Set { return s.set }

// Describe gives the variables the schema declares, each with its
// schema when the compiler kept the YAML (tree.Compiler.KeepYAML).
func (s *schemaDir) Describe() tree.Description {
	d := tree.Description{Name: "$schema", Key: s.key}
	for _, v := range s.set.Variables() {
		d.Binds = append(d.Binds, tree.BoundName{Name: v.Name, Node: v.Key, Value: entryValue(s.val, v.Key)})
	}
	return d
}

// entryValue is the value of the entry of mapping m whose key is key.
func entryValue(m, key *yaml.Node) *yaml.Node {
	for i := 0; m != nil && i+1 < len(m.Content); i += 2 {
		if tree.Deref(m.Content[i]) == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// Describe gives the collection, the loop's names, each at its place in
// the $for string, and the body under $do.
func (f *forDir) Describe() tree.Description {
	return tree.Description{Name: "$for", Key: f.key, Exprs: []*tree.ExprRef{f.coll},
		Binds:  loopNames(f.coll.Node),
		Bodies: []tree.Body{{Key: f.doKey, Name: "$do", Node: f.body}}}
}

// loopNames are the names of the $for string n ("k, v in EXPR"), each
// as a node where it is written: its column counted in the string's
// characters, past the opening quote of a quoted one; the string's own
// column when a line break comes before it.
func loopNames(n *yaml.Node) []tree.BoundName {
	m := tree.ForSyntax.FindStringSubmatchIndex(n.Value)
	if m == nil {
		return nil
	}
	shift := 0
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		shift = 1
	}
	var out []tree.BoundName
	for g := 1; g <= 2; g++ {
		at := m[2*g]
		if at < 0 {
			continue
		}
		col := n.Column + shift + utf8.RuneCountInString(n.Value[:at])
		if strings.Contains(n.Value[:at], "\n") {
			col = n.Column
		}
		name := n.Value[at:m[2*g+1]]
		out = append(out, tree.BoundName{Name: name,
			Node: &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name, Line: n.Line, Column: col}})
	}
	return out
}

// Describe gives the condition (none when it is a YAML bool) and the
// branches present.
func (f *ifDir) Describe() tree.Description {
	d := tree.Description{Name: "$if", Key: f.key}
	if f.cond != nil {
		d.Exprs = []*tree.ExprRef{f.cond}
	}
	d.Bodies = append(d.Bodies, tree.Body{Key: f.thenKey, Name: "$then", Node: f.then})
	if f.els != nil {
		d.Bodies = append(d.Bodies, tree.Body{Key: f.elseKey, Name: "$else", Node: f.els})
	}
	return d
}

// Describe gives the ${{ }} expressions of the string.
func (e *evalDir) Describe() tree.Description {
	return tree.Description{Name: "$eval", Key: e.key, Exprs: e.t.exprs()}
}

// Describe gives the key's template and the value's, under $value.
func (k *kvDir) Describe() tree.Description {
	return tree.Description{Name: "$key", Key: k.key,
		Bodies: []tree.Body{{Node: k.k}, {Key: k.vKey, Name: "$value", Node: k.v}}}
}

// Describe gives the path's template, then the $with entries, which the
// included file sees bound (reference §4 $include).
func (i *includeDir) Describe() tree.Description {
	d := tree.Description{Name: "$include", Key: i.key, Bodies: []tree.Body{{Node: i.file}}}
	_, d.Binds, _ = entries(i.with)
	for j := range i.with {
		d.Bodies = append(d.Bodies, tree.Body{Key: i.with[j].key, Name: i.with[j].name, Node: i.with[j].body})
	}
	return d
}

// Describe gives the $if condition, then the preludes beside $chart, its
// source and its options, in template order (reference §11).
func (t *chartNode) Describe() tree.Description {
	d := tree.Description{Name: "$chart", Key: t.key}
	if t.cond != nil {
		d.Exprs = []*tree.ExprRef{t.cond}
	}
	if t.pre != nil {
		d.Bodies = append(d.Bodies, tree.Body{Node: t.pre, Beside: true})
	}
	d.Bodies = append(d.Bodies, tree.Body{Node: t.src})
	opts := make([]tree.Body, 0, len(t.opts))
	for name, o := range t.opts {
		opts = append(opts, tree.Body{Key: o.key, Name: name, Node: o.val})
	}
	sort.Slice(opts, func(a, b int) bool { return before(opts[a].Key, opts[b].Key) })
	d.Bodies = append(d.Bodies, opts...)
	return d
}

// before orders two keys by their place in the template.
func before(a, b *yaml.Node) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}
