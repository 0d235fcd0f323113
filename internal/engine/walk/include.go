package walk

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/fileread"
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
	shown := p
	if !filepath.IsAbs(p) {
		shown = filepath.Join(fr.dir, p)
	}
	resolved := filepath.Clean(shown)
	if err := d.checkNesting(r, fr, resolved); err != nil {
		return opened{}, err
	}
	f, err := d.load(r, fr, shown, resolved)
	if err != nil {
		return opened{}, err
	}
	inc := Pos{File: fr.file, Line: d.key.Line, Column: d.key.Column}
	chain := make([]Pos, 0, len(fr.chain)+1)
	chain = append(append(chain, inc), fr.chain...)
	nf := &frame{file: filepath.ToSlash(shown), dir: filepath.Dir(shown), real: resolved, chain: chain,
		files: append(append(make([]string, 0, len(fr.files)+1), fr.files...), resolved)}
	if f.err != nil {
		return opened{}, r.compileErr(nf, f.err)
	}
	if err := r.checkDepth(f, nf); err != nil {
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

// checkNesting refuses a file already on the include chain, and an include
// past MaxIncludeDepth.
func (d *includeDir) checkNesting(r *renderer, fr *frame, resolved string) error {
	for _, f := range fr.files {
		if f == resolved {
			chain := append(append([]string{}, fr.files...), resolved)
			for i := range chain {
				chain[i] = filepath.ToSlash(chain[i])
			}
			return r.errAt(fr, d.key, d.path, "include cycle: "+strings.Join(chain, " -> ")+"; recursion is not supported")
		}
	}
	if len(fr.chain)+1 > r.e.opts.MaxIncludeDepth {
		return r.limitErr(fr, d.key, d.path, "MaxIncludeDepth", "includes nest deeper than MaxIncludeDepth ("+itoa(r.e.opts.MaxIncludeDepth)+")")
	}
	return nil
}

// load reads and compiles the file, at most once per render.
func (d *includeDir) load(r *renderer, fr *frame, shown, resolved string) (*compiledFile, error) {
	if f := r.files[resolved]; f != nil {
		return f, nil
	}
	text, err := r.e.opts.Loader.ReadFile(r.ctx, shown, r.e.opts.MaxTemplateBytes)
	if errors.Is(err, fileread.ErrTooLarge) {
		return nil, r.limitErr(fr, d.pathN, d.path, "MaxTemplateBytes", "included file "+quote(filepath.ToSlash(shown))+" is larger than MaxTemplateBytes ("+itoa(r.e.opts.MaxTemplateBytes)+" bytes)")
	}
	if err != nil {
		return nil, r.errAt(fr, d.pathN, d.path, "cannot read included file "+quote(filepath.ToSlash(shown))+": "+loadErrText(err))
	}
	f := r.e.files.get(text)
	if r.files == nil {
		r.files = map[string]*compiledFile{}
	}
	r.files[resolved] = f
	return f, nil
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

func loadErrText(err error) string {
	var fe *fileread.Error
	switch {
	case errors.As(err, &fe):
		return fe.Reason
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "cancelled: " + err.Error()
	case errors.Is(err, fs.ErrNotExist):
		return "file does not exist"
	case errors.Is(err, ErrOutsideRoots):
		return ErrOutsideRoots.Error()
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
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
