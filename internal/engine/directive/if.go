package directive

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// $if / $then / $else renders one branch. A missing branch gives nothing.

type ifDir struct {
	key              *yaml.Node
	cond             *tree.ExprRef
	constCond        *bool     // a YAML bool written as the condition
	then, els        tree.Node // nil when the branch is absent
	thenKey, elseKey *yaml.Node
	thenSeq, elseSeq bool // the body is written as a YAML sequence
	path             string
	// unknown is what the $if gives while its condition is not known: an
	// unknown of the type both branches have when each is a plain scalar
	// of that type (or null), of dynamic type otherwise.
	unknown value.Value
}

func compileIf(c *tree.Compiler, key, cond *yaml.Node, thenP, elseP tree.KVPair, path string) (tree.Producer, *tree.CompileError) {
	d := &ifDir{key: key, path: path, thenKey: thenP.K, elseKey: elseP.K}
	thenN, elseN := thenP.V, elseP.V
	cn := tree.Deref(cond)
	if s, ok := tree.StringScalar(cn); ok {
		d.cond = tree.NewExprRef(tree.ExprRef{Text: s, Shown: s, Node: cn, Path: path, Bare: "$if"})
	} else if b, ok := tree.BoolScalar(cn); ok {
		d.constCond = &b
	} else {
		return nil, tree.CompileErrorAt(cn, path, "$if takes a CEL expression string, got "+yamlnode.AKind(cn))
	}
	var err *tree.CompileError
	if d.then, err = c.Compile(thenN, path+".$then"); err != nil {
		return nil, err
	}
	d.thenSeq = tree.Deref(thenN).Kind == yaml.SequenceNode
	if elseN != nil {
		if d.els, err = c.Compile(elseN, path+".$else"); err != nil {
			return nil, err
		}
		d.elseSeq = tree.Deref(elseN).Kind == yaml.SequenceNode
	}
	d.unknown = value.UnknownOf(branchesType(d.then, d.els))
	return d, nil
}

// branchesType is the one type two branches written as plain scalars
// have, null fitting any: `$then: Always`, `$else: IfNotPresent` is a
// string whichever is taken. It is dynamic when a branch is missing or
// anything but a scalar, or when they differ.
func branchesType(a, b tree.Node) value.Type {
	t := value.TypeDynamic
	for _, br := range []tree.Node{a, b} {
		c, ok := br.(*tree.ConstNode)
		if !ok {
			return value.TypeDynamic
		}
		if c.Value == nil {
			continue
		}
		bt := value.TypeOf(c.Value)
		if bt == value.TypeDynamic || (t != value.TypeDynamic && t != bt) {
			return value.TypeDynamic
		}
		t = bt
	}
	return t
}

func (d *ifDir) KeyNode() *yaml.Node { return d.key }
func (d *ifDir) Name() string        { return "$if" }

// chosen is the branch an $if takes: its body (nil for none), whether the
// body is written as a sequence, and its key; or unknown, when the
// condition is not known yet.
type chosen struct {
	body    tree.Node
	seq     bool
	key     *yaml.Node
	unknown bool
}

// branch decides the condition.
func (d *ifDir) branch(r tree.Evaluator, sc *scope.Scope, fr *diag.Frame) (chosen, error) {
	var ok bool
	if d.constCond != nil {
		ok = *d.constCond
	} else {
		v, unknown, err := r.EvalBool(d.cond, sc, fr, "the $if condition")
		if err != nil || unknown {
			return chosen{unknown: unknown}, err
		}
		ok = v
	}
	if ok {
		return chosen{body: d.then, seq: d.thenSeq, key: d.thenKey}, nil
	}
	return chosen{body: d.els, seq: d.elseSeq, key: d.elseKey}, nil
}

func (d *ifDir) Value(r tree.ContentRenderer, sc *scope.Scope, fr *diag.Frame) (value.Value, bool, error) {
	b, err := d.branch(r, sc, fr)
	if err != nil {
		return nil, false, err
	}
	if b.unknown {
		return d.unknown, true, nil
	}
	if b.body == nil {
		return nil, false, nil
	}
	return r.Value(b.body, sc, fr)
}

func (d *ifDir) Multi(r tree.ContentRenderer, sc *scope.Scope, fr *diag.Frame, pos tree.Position, dst []value.Value) ([]value.Value, error) {
	b, err := d.branch(r, sc, fr)
	if err != nil {
		return dst, err
	}
	if b.unknown {
		// One item whatever the branch, when both bodies are plain
		// values; otherwise the count itself is unknown.
		if pos == tree.PosItem && d.els != nil && !d.thenSeq && !d.elseSeq && isPlain(d.then) && isPlain(d.els) {
			return append(dst, d.unknown), nil
		}
		return dst, tree.ErrUnknownShape
	}
	if b.body == nil {
		return dst, nil
	}
	if b.seq {
		return r.Splice(b.body, b.key, d.path+"."+b.key.Value, sc, fr, pos, dst)
	}
	return r.Multi(b.body, sc, fr, pos, dst)
}

// isPlain reports whether t gives exactly one value in item position.
func isPlain(t tree.Node) bool {
	switch t := t.(type) {
	case *tree.ConstNode, *tree.SeqNode:
		return true
	case *tree.MapNode:
		return !t.Replaces() && !hasAssert(t)
	}
	return false
}

// WritesKey reports whether a branch writes key k itself.
func (d *ifDir) WritesKey(k string) bool {
	return tree.WritesKey(d.then, k) || tree.WritesKey(d.els, k)
}

// hasAssert reports whether m has an $assert.
func hasAssert(m *tree.MapNode) bool {
	for _, p := range m.Preludes {
		if _, ok := p.(*assertDir); ok {
			return true
		}
	}
	return false
}

// If gives the directive table's entries of
// $if and its partners $then and $else (reference §4 $if).
func If() []tree.Directive {
	return []tree.Directive{
		{Name: "$if", Kind: tree.KindProducer, Needs: "$then", Patchable: true,
			Exprs: tree.ExprBare, Must: tree.MustBool, MustWhat: "the $if condition", Section: 4,
			Summary: "Renders $then when the CEL expression is true, else $else (or nothing).",
			Missing: "$if without $then: write the value to use when the condition is true under $then",
			Produce: func(c *tree.Compiler, d tree.DirSet, p tree.KVPair, path string) (tree.Producer, *tree.CompileError) {
				return compileIf(c, p.K, p.V, d["$then"], d["$else"], tree.JoinPath(path, "$if"))
			}},
		{Name: "$then", Kind: tree.KindPartner, Needs: "$if", Body: true,
			Section: 4, Summary: "The body $if renders when its condition is true."},
		{Name: "$else", Kind: tree.KindPartner, Needs: "$if", Body: true,
			Section: 4, Summary: "The body $if renders when its condition is false."},
	}
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
