package walk

import (
	"errors"

	"go.yaml.in/yaml/v3"
)

// $include renders another file in the current scope plus the $with
// entries. The path is rendered first and resolves against the directory
// of the including file (or the base directory of an inline template). A
// file is read and parsed at most once per render; a file already on the
// include chain is a cycle.

type includeDir struct {
	key   *yaml.Node
	pathN *yaml.Node
	file  tnode
	with  []letEntry
	path  string
}

func (c *compiler) includeDir(key, pathN, with *yaml.Node, path string) (producer, *compileError) {
	d := &includeDir{key: key, pathN: deref(pathN), path: path}
	var err *compileError
	if d.file, err = c.node(pathN, path); err != nil {
		return nil, err
	}
	if with != nil {
		if d.with, err = c.bindings(deref(with), with, path+".$with", "$with takes a mapping from variable names to values", false); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (d *includeDir) keyNode() *yaml.Node { return d.key }
func (d *includeDir) name() string        { return "$include" }

// opened is an included file ready to render: its compiled form and the
// scope and frame it renders in, or unknown when its path is not known yet.
type opened struct {
	file    *compiledFile
	scope   *scope
	frame   *frame
	unknown bool
}

// open renders the path, loads the file and builds the scope and frame it
// renders in.
func (d *includeDir) open(r *renderer, sc *scope, fr *frame) (opened, error) {
	p, unknown, err := d.filePath(r, sc, fr)
	if err != nil || unknown {
		return opened{unknown: unknown}, err
	}
	f, nf, err := r.openFile(fr, d.key, d.pathN, d.path, p)
	if err != nil {
		return opened{}, err
	}
	inner, err := d.withScope(r, sc, fr)
	if err != nil {
		return opened{}, err
	}
	return opened{file: f, scope: inner, frame: nf}, nil
}

// filePath renders the path; unknown reports one that is not known yet.
func (d *includeDir) filePath(r *renderer, sc *scope, fr *frame) (path string, unknown bool, err error) {
	pv, ok, err := r.value(d.file, sc, fr)
	if err != nil {
		return "", false, err
	}
	p, isStr := pv.(string)
	if _, unk := pv.(Unknown); unk {
		return "", true, nil
	}
	if !ok || !isStr || p == "" {
		what := "nothing"
		if ok {
			what = valueKind(pv)
		}
		if isStr {
			what = "an empty string"
		}
		return "", false, r.errAt(fr, d.pathN, d.path, "$include takes a file path string, got "+what)
	}
	return p, false, nil
}

// withScope binds the $with entries, rendered in the includer's scope.
func (d *includeDir) withScope(r *renderer, sc *scope, fr *frame) (*scope, error) {
	if len(d.with) == 0 {
		return sc, nil
	}
	inner := newScopeCap(sc, len(d.with))
	for i := range d.with {
		e := &d.with[i]
		v, ok, err := r.value(e.body, sc, fr)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // nothing: no binding, the outer name stays visible
		}
		inner.bindValue(e.name, v)
	}
	return inner, nil
}

func (d *includeDir) value(r *renderer, sc *scope, fr *frame) (Value, bool, error) {
	o, err := d.open(r, sc, fr)
	if err != nil {
		return nil, false, err
	}
	if o.unknown {
		return Unknown{}, true, nil
	}
	docs, inner := o.file.docs, o.scope
	for len(docs) > 1 {
		next, pre, err := r.preamble(docs[0], inner, o.frame)
		if errors.Is(err, errUnknownShape) {
			return Unknown{}, true, nil
		}
		if err != nil {
			return nil, false, err
		}
		if !pre {
			break
		}
		docs, inner = docs[1:], next
	}
	if len(docs) != 1 {
		return nil, false, r.errAt(fr, d.key, d.path, "included file "+quote(o.frame.file)+" holds "+itoa(len(docs))+
			" documents; here, in value position, it must hold exactly one (several documents splice only into a sequence or a stream)")
	}
	return r.value(docs[0], inner, o.frame)
}

func (d *includeDir) multi(r *renderer, sc *scope, fr *frame, pos position, dst []Value) ([]Value, error) {
	o, err := d.open(r, sc, fr)
	if err != nil {
		return dst, err
	}
	if o.unknown {
		return dst, errUnknownShape
	}
	sc = o.scope
	for _, doc := range o.file.docs {
		next, pre, err := r.preamble(doc, sc, o.frame)
		if err != nil {
			return dst, err
		}
		if pre {
			sc = next // for the later documents of the included file only
			continue
		}
		n := len(dst)
		if dst, err = r.multi(doc, sc, o.frame, pos, dst); err != nil {
			return dst, err
		}
		if pos == posItem {
			// A null document of a stream adds nothing to a sequence.
			if len(dst) == n+1 && dst[n] == nil && len(o.file.docs) > 1 {
				dst = dst[:n]
			}
		}
	}
	return dst, nil
}

func init() {
	register(directive{rank: 130, name: "$include", kind: dirProducer,
		produce: func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError) {
			return c.includeDir(p.k, p.v, d.value("$with"), joinPath(path, "$include"))
		}})
	register(directive{rank: 140, name: "$with", kind: dirPartner, needs: "$include"})
}
