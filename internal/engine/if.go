package engine

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// $if / $then / $else renders one branch. A missing branch gives nothing.

type ifDir struct {
	key              *yaml.Node
	cond             *exprRef
	constCond        *bool // a YAML bool written as the condition
	then, els        tnode // nil when the branch is absent
	thenKey, elseKey *yaml.Node
	thenSeq, elseSeq bool // the body is written as a YAML sequence
	path             string
}

func (c *compiler) ifDir(key, cond *yaml.Node, thenP, elseP kvPair, path string) (producer, *compileError) {
	d := &ifDir{key: key, path: path, thenKey: thenP.k, elseKey: elseP.k}
	thenN, elseN := thenP.v, elseP.v
	cn := deref(cond)
	if s, ok := stringScalar(cn); ok {
		d.cond = newExprRef(exprRef{text: s, shown: s, node: cn, path: path, bare: "$if"})
	} else if b, ok := boolScalar(cn); ok {
		d.constCond = &b
	} else {
		return nil, cerr(cn, path, "$if takes a CEL expression string, got "+yamlnode.AKind(cn))
	}
	var err *compileError
	if d.then, err = c.node(thenN, path+".$then"); err != nil {
		return nil, err
	}
	d.thenSeq = deref(thenN).Kind == yaml.SequenceNode
	if elseN != nil {
		if d.els, err = c.node(elseN, path+".$else"); err != nil {
			return nil, err
		}
		d.elseSeq = deref(elseN).Kind == yaml.SequenceNode
	}
	return d, nil
}

func (d *ifDir) keyNode() *yaml.Node { return d.key }
func (d *ifDir) name() string        { return "$if" }

// branch decides the condition: the chosen body (nil for none), whether it
// is a sequence body, and whether the condition is unknown.
func (d *ifDir) branch(r *renderer, sc *scope, fr *frame) (tnode, bool, *yaml.Node, bool, error) {
	var ok bool
	if d.constCond != nil {
		ok = *d.constCond
	} else {
		v, unknown, err := r.evalBool(d.cond, sc, fr, "the $if condition")
		if err != nil || unknown {
			return nil, false, nil, unknown, err
		}
		ok = v
	}
	if ok {
		return d.then, d.thenSeq, d.thenKey, false, nil
	}
	return d.els, d.elseSeq, d.elseKey, false, nil
}

func (d *ifDir) value(r *renderer, sc *scope, fr *frame) (Value, bool, error) {
	body, _, _, unknown, err := d.branch(r, sc, fr)
	if err != nil {
		return nil, false, err
	}
	if unknown {
		return Unknown{}, true, nil
	}
	if body == nil {
		return nil, false, nil
	}
	return r.value(body, sc, fr)
}

func (d *ifDir) multi(r *renderer, sc *scope, fr *frame, pos position, dst []Value) ([]Value, error) {
	body, seq, bkey, unknown, err := d.branch(r, sc, fr)
	if err != nil {
		return dst, err
	}
	if unknown {
		// One item whatever the branch, when both bodies are plain
		// values; otherwise the count itself is unknown.
		if pos == posItem && d.els != nil && !d.thenSeq && !d.elseSeq && isPlain(d.then) && isPlain(d.els) {
			return append(dst, Unknown{}), nil
		}
		return dst, errUnknownShape
	}
	if body == nil {
		return dst, nil
	}
	if seq {
		return r.splice(body, bkey, d.path+"."+bkey.Value, sc, fr, pos, dst)
	}
	return r.multi(body, sc, fr, pos, dst)
}

// isPlain reports whether t gives exactly one value in item position.
func isPlain(t tnode) bool {
	switch t := t.(type) {
	case *constNode, *seqNode:
		return true
	case *mapNode:
		return !t.replaces() && t.asserts == nil
	}
	return false
}

// boolScalar gives the value of n when it is a YAML bool.
func boolScalar(n *yaml.Node) (bool, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return false, false
	}
	v, _ := yamlnode.Scalar(n)
	b, ok := v.(bool)
	return b, ok
}
