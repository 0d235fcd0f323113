package engine

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

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

// open renders the path, loads the file and builds the scope and frame it
// renders in. unknown reports a path that is not known yet.
func (d *includeDir) open(r *renderer, sc *scope, fr *frame) (*compiledFile, *scope, *frame, bool, error) {
	pv, ok, err := r.value(d.file, sc, fr)
	if err != nil {
		return nil, nil, nil, false, err
	}
	p, isStr := pv.(string)
	if _, unk := pv.(Unknown); unk {
		return nil, nil, nil, true, nil
	}
	if !ok || !isStr || p == "" {
		what := "nothing"
		if ok {
			what = valueKind(pv)
		}
		if isStr {
			what = "an empty string"
		}
		return nil, nil, nil, false, r.errAt(fr, d.pathN, d.path, "$include takes a file path string, got "+what)
	}
	shown := p
	if !filepath.IsAbs(p) {
		shown = filepath.Join(fr.dir, p)
	}
	resolved := filepath.Clean(shown)
	inc := Pos{File: fr.file, Line: d.key.Line, Column: d.key.Column}
	for _, f := range fr.files {
		if f == resolved {
			chain := append(append([]string{}, fr.files...), resolved)
			for i := range chain {
				chain[i] = filepath.ToSlash(chain[i])
			}
			return nil, nil, nil, false, r.errAt(fr, d.key, d.path, "include cycle: "+strings.Join(chain, " -> ")+"; recursion is not supported")
		}
	}
	if len(fr.chain)+1 > r.e.opts.MaxIncludeDepth {
		return nil, nil, nil, false, r.limitErr(fr, d.key, d.path, "MaxIncludeDepth", "includes nest deeper than MaxIncludeDepth ("+itoa(r.e.opts.MaxIncludeDepth)+")")
	}
	f := r.files[resolved]
	if f == nil {
		text, err := r.e.opts.Loader.ReadFile(shown)
		if err != nil {
			return nil, nil, nil, false, r.errAt(fr, d.pathN, d.path, "cannot read included file "+quote(filepath.ToSlash(shown))+": "+loadErrText(err))
		}
		if len(text) > r.e.opts.MaxTemplateBytes {
			return nil, nil, nil, false, r.limitErr(fr, d.pathN, d.path, "MaxTemplateBytes", "included file "+quote(filepath.ToSlash(shown))+" is larger than MaxTemplateBytes ("+itoa(r.e.opts.MaxTemplateBytes)+" bytes)")
		}
		f = r.e.files.get(text)
		if r.files == nil {
			r.files = map[string]*compiledFile{}
		}
		r.files[resolved] = f
	}
	chain := make([]Pos, 0, len(fr.chain)+1)
	chain = append(append(chain, inc), fr.chain...)
	nf := &frame{file: filepath.ToSlash(shown), dir: filepath.Dir(shown), real: resolved, chain: chain,
		files: append(append(make([]string, 0, len(fr.files)+1), fr.files...), resolved)}
	if f.err != nil {
		return nil, nil, nil, false, r.compileErr(nf, f.err)
	}
	if err := r.checkDepth(f, nf); err != nil {
		return nil, nil, nil, false, err
	}
	inner := sc
	if len(d.with) > 0 {
		inner = newScopeCap(sc, len(d.with))
		for i := range d.with {
			e := &d.with[i]
			v, ok, err := r.value(e.body, sc, fr)
			if err != nil {
				return nil, nil, nil, false, err
			}
			if !ok {
				continue // nothing: no binding, the outer name stays visible
			}
			inner.bindValue(e.name, v)
		}
	}
	return f, inner, nf, false, nil
}

func loadErrText(err error) string {
	switch {
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
	f, inner, nf, unknown, err := d.open(r, sc, fr)
	if err != nil {
		return nil, false, err
	}
	if unknown {
		return Unknown{}, true, nil
	}
	if len(f.docs) != 1 {
		return nil, false, r.errAt(fr, d.key, d.path, "included file "+quote(nf.file)+" holds "+itoa(len(f.docs))+
			" documents; here, in value position, it must hold exactly one (several documents splice only into a sequence or a stream)")
	}
	return r.value(f.docs[0], inner, nf)
}

func (d *includeDir) multi(r *renderer, sc *scope, fr *frame, pos position, dst []Value) ([]Value, error) {
	f, inner, nf, unknown, err := d.open(r, sc, fr)
	if err != nil {
		return dst, err
	}
	if unknown {
		return dst, errUnknownShape
	}
	for _, doc := range f.docs {
		n := len(dst)
		if dst, err = r.multi(doc, inner, nf, pos, dst); err != nil {
			return dst, err
		}
		if pos == posItem {
			// A null document of a stream adds nothing to a sequence.
			if len(dst) == n+1 && dst[n] == nil && len(f.docs) > 1 {
				dst = dst[:n]
			}
		}
	}
	return dst, nil
}
