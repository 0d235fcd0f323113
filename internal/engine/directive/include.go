package directive

import (
	"errors"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
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
	file  tree.Node
	with  []letEntry
	path  string
}

func compileInclude(c *tree.Compiler, key, pathN, with *yaml.Node, path string) (tree.Producer, *tree.CompileError) {
	d := &includeDir{key: key, pathN: tree.Deref(pathN), path: path}
	var err *tree.CompileError
	if d.file, err = c.Compile(pathN, path); err != nil {
		return nil, err
	}
	if with != nil {
		if d.with, err = bindings(c, tree.Deref(with), with, path+".$with", "$with takes a mapping from variable names to values", false); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (d *includeDir) KeyNode() *yaml.Node { return d.key }
func (d *includeDir) Name() string        { return "$include" }

// opened is an included file ready to render: its compiled form and the
// scope and frame it renders in, or unknown when its path is not known yet.
type opened struct {
	file    *tree.CompiledFile
	scope   *scope.Scope
	frame   *diag.Frame
	unknown bool
}

// open renders the path, loads the file and builds the scope and frame it
// renders in.
func (d *includeDir) open(r tree.ContentRenderer, sc *scope.Scope, fr *diag.Frame) (opened, error) {
	p, unknown, err := d.filePath(r, sc, fr)
	if err != nil || unknown {
		return opened{unknown: unknown}, err
	}
	f, nf, err := r.OpenFile(fr, d.key, d.pathN, d.path, p)
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
func (d *includeDir) filePath(r tree.ContentRenderer, sc *scope.Scope, fr *diag.Frame) (path string, unknown bool, err error) {
	pv, ok, err := r.Value(d.file, sc, fr)
	if err != nil {
		return "", false, err
	}
	p, isStr := pv.(string)
	if _, unk := pv.(value.Unknown); unk {
		return "", true, nil
	}
	if !ok || !isStr || p == "" {
		what := "nothing"
		if ok {
			what = tree.ValueKind(pv)
		}
		if isStr {
			what = "an empty string"
		}
		return "", false, r.ErrAt(fr, d.pathN, d.path, "$include takes a file path string, got "+what)
	}
	return p, false, nil
}

// withScope binds the $with entries, rendered in the includer's scope.
func (d *includeDir) withScope(r tree.Walker, sc *scope.Scope, fr *diag.Frame) (*scope.Scope, error) {
	if len(d.with) == 0 {
		return sc, nil
	}
	inner := scope.New(sc, len(d.with))
	for i := range d.with {
		e := &d.with[i]
		v, ok, err := r.Value(e.body, sc, fr)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // nothing: no binding, the outer name stays visible
		}
		inner.BindValue(e.name, v)
	}
	return inner, nil
}

func (d *includeDir) Value(r tree.ContentRenderer, sc *scope.Scope, fr *diag.Frame) (value.Value, bool, error) {
	o, err := d.open(r, sc, fr)
	if err != nil {
		return nil, false, err
	}
	if o.unknown {
		return value.Unknown{}, true, nil
	}
	docs, inner := o.file.Docs, o.scope
	for len(docs) > 1 {
		next, pre, err := r.Preamble(docs[0], inner, o.frame)
		if errors.Is(err, tree.ErrUnknownShape) {
			return value.Unknown{}, true, nil
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
		return nil, false, r.ErrAt(fr, d.key, d.path, "included file "+tree.Quote(o.frame.File)+" holds "+tree.Itoa(len(docs))+
			" documents; here, in value position, it must hold exactly one (several documents splice only into a sequence or a stream)")
	}
	return r.Value(docs[0], inner, o.frame)
}

func (d *includeDir) Multi(r tree.ContentRenderer, sc *scope.Scope, fr *diag.Frame, pos tree.Position, dst []value.Value) ([]value.Value, error) {
	o, err := d.open(r, sc, fr)
	if err != nil {
		return dst, err
	}
	if o.unknown {
		return dst, tree.ErrUnknownShape
	}
	sc = o.scope
	for _, doc := range o.file.Docs {
		next, pre, err := r.Preamble(doc, sc, o.frame)
		if err != nil {
			return dst, err
		}
		if pre {
			sc = next // for the later documents of the included file only
			continue
		}
		n := len(dst)
		if dst, err = r.Multi(doc, sc, o.frame, pos, dst); err != nil {
			return dst, err
		}
		if pos == tree.PosItem {
			// A null document of a stream adds nothing to a sequence.
			if len(dst) == n+1 && dst[n] == nil && len(o.file.Docs) > 1 {
				dst = dst[:n]
			}
		}
	}
	return dst, nil
}

// Include gives the directive table's entries of
// $include and its partner $with (reference §4 $include).
func Include() []tree.Directive {
	return []tree.Directive{
		{Name: "$include", Kind: tree.KindProducer,
			Includes: true, Section: 4,
			Summary: "Renders another template file here: its path, a string (or an $eval mapping for a computed one).",
			Produce: func(c *tree.Compiler, d tree.DirSet, p tree.KVPair, path string) (tree.Producer, *tree.CompileError) {
				return compileInclude(c, p.K, p.V, d.Value("$with"), tree.JoinPath(path, "$include"))
			}},
		{Name: "$with", Kind: tree.KindPartner, Needs: "$include",
			Bound: tree.BindIncluded, Section: 4,
			Summary: "Variables for the $include'd file: a mapping from names to templates."},
	}
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
