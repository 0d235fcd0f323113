package walk

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
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
	// unknown is what the $if gives while its condition is not known: an
	// unknown of the type both branches have when each is a plain scalar
	// of that type (or null), of dynamic type otherwise.
	unknown Value
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
	d.unknown = UnknownOf(branchesType(d.then, d.els))
	return d, nil
}

// branchesType is the one type two branches written as plain scalars
// have, null fitting any: `$then: Always`, `$else: IfNotPresent` is a
// string whichever is taken. It is dynamic when a branch is missing or
// anything but a scalar, or when they differ.
func branchesType(a, b tnode) Type {
	t := TypeDynamic
	for _, br := range []tnode{a, b} {
		c, ok := br.(*constNode)
		if !ok {
			return TypeDynamic
		}
		if c.v == nil {
			continue
		}
		bt := value.TypeOf(c.v)
		if bt == TypeDynamic || (t != TypeDynamic && t != bt) {
			return TypeDynamic
		}
		t = bt
	}
	return t
}

func (d *ifDir) keyNode() *yaml.Node { return d.key }
func (d *ifDir) name() string        { return "$if" }

// chosen is the branch an $if takes: its body (nil for none), whether the
// body is written as a sequence, and its key; or unknown, when the
// condition is not known yet.
type chosen struct {
	body    tnode
	seq     bool
	key     *yaml.Node
	unknown bool
}

// branch decides the condition.
func (d *ifDir) branch(r *renderer, sc *scope, fr *frame) (chosen, error) {
	var ok bool
	if d.constCond != nil {
		ok = *d.constCond
	} else {
		v, unknown, err := r.evalBool(d.cond, sc, fr, "the $if condition")
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

func (d *ifDir) value(r *renderer, sc *scope, fr *frame) (Value, bool, error) {
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
	return r.value(b.body, sc, fr)
}

func (d *ifDir) multi(r *renderer, sc *scope, fr *frame, pos position, dst []Value) ([]Value, error) {
	b, err := d.branch(r, sc, fr)
	if err != nil {
		return dst, err
	}
	if b.unknown {
		// One item whatever the branch, when both bodies are plain
		// values; otherwise the count itself is unknown.
		if pos == posItem && d.els != nil && !d.thenSeq && !d.elseSeq && isPlain(d.then) && isPlain(d.els) {
			return append(dst, d.unknown), nil
		}
		return dst, errUnknownShape
	}
	if b.body == nil {
		return dst, nil
	}
	if b.seq {
		return r.splice(b.body, b.key, d.path+"."+b.key.Value, sc, fr, pos, dst)
	}
	return r.multi(b.body, sc, fr, pos, dst)
}

// isPlain reports whether t gives exactly one value in item position.
func isPlain(t tnode) bool {
	switch t := t.(type) {
	case *constNode, *seqNode:
		return true
	case *mapNode:
		return !t.replaces() && !hasAssert(t)
	}
	return false
}

// writesKey reports whether a branch writes key k itself.
func (d *ifDir) writesKey(k string) bool { return writesKey(d.then, k) || writesKey(d.els, k) }

// hasAssert reports whether m has an $assert.
func hasAssert(m *mapNode) bool {
	for _, p := range m.preludes {
		if _, ok := p.(*assertDir); ok {
			return true
		}
	}
	return false
}

func init() {
	register(directive{rank: 50, name: "$if", kind: dirProducer, needs: "$then", patchable: true,
		missing: "$if without $then: write the value to use when the condition is true under $then",
		produce: func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError) {
			return c.ifDir(p.k, p.v, d["$then"], d["$else"], joinPath(path, "$if"))
		}})
	register(directive{rank: 60, name: "$then", kind: dirPartner, needs: "$if", body: true})
	register(directive{rank: 70, name: "$else", kind: dirPartner, needs: "$if", body: true})
}
