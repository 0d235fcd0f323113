package walk

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/fileread"
	"go.yaml.in/yaml/v3"
)

// The files of a render: an $include names a file, the walker reads and
// compiles it (at most once per render, through the engine's cache) and
// gives the frame it renders in.

// openFile resolves p, the path an $include at key gives (pathN is where
// the path is written, path the directive's path), against the including
// file's directory; refuses a file already on the include chain and an
// include past MaxIncludeDepth; reads and compiles the file; and gives it
// with the frame it renders in.
func (r *renderer) openFile(fr *frame, key, pathN *yaml.Node, path, p string) (*compiledFile, *frame, error) {
	shown := p
	if !filepath.IsAbs(p) {
		shown = filepath.Join(fr.dir, p)
	}
	resolved := filepath.Clean(shown)
	if err := r.checkNesting(fr, key, path, resolved); err != nil {
		return nil, nil, err
	}
	f, err := r.load(fr, pathN, path, shown, resolved)
	if err != nil {
		return nil, nil, err
	}
	inc := Pos{File: fr.file, Line: key.Line, Column: key.Column}
	chain := make([]Pos, 0, len(fr.chain)+1)
	chain = append(append(chain, inc), fr.chain...)
	nf := &frame{file: filepath.ToSlash(shown), dir: filepath.Dir(shown), real: resolved, chain: chain,
		files: append(append(make([]string, 0, len(fr.files)+1), fr.files...), resolved)}
	if f.err != nil {
		return nil, nil, r.compileErr(nf, f.err)
	}
	if err := r.checkDepth(f, nf); err != nil {
		return nil, nil, err
	}
	return f, nf, nil
}

// checkNesting refuses a file already on the include chain, and an include
// past MaxIncludeDepth.
func (r *renderer) checkNesting(fr *frame, key *yaml.Node, path, resolved string) error {
	for _, f := range fr.files {
		if f == resolved {
			chain := append(append([]string{}, fr.files...), resolved)
			for i := range chain {
				chain[i] = filepath.ToSlash(chain[i])
			}
			return r.errAt(fr, key, path, "include cycle: "+strings.Join(chain, " -> ")+"; recursion is not supported")
		}
	}
	if len(fr.chain)+1 > r.e.opts.MaxIncludeDepth {
		return r.limitErr(fr, key, path, "MaxIncludeDepth", "includes nest deeper than MaxIncludeDepth ("+itoa(r.e.opts.MaxIncludeDepth)+")")
	}
	return nil
}

// load reads and compiles the file, at most once per render.
func (r *renderer) load(fr *frame, pathN *yaml.Node, path, shown, resolved string) (*compiledFile, error) {
	if f := r.files[resolved]; f != nil {
		return f, nil
	}
	text, err := r.e.opts.Loader.ReadFile(r.ctx, shown, r.e.opts.MaxTemplateBytes)
	if errors.Is(err, fileread.ErrTooLarge) {
		return nil, r.limitErr(fr, pathN, path, "MaxTemplateBytes", "included file "+quote(filepath.ToSlash(shown))+" is larger than MaxTemplateBytes ("+itoa(r.e.opts.MaxTemplateBytes)+" bytes)")
	}
	if err != nil {
		return nil, r.errAt(fr, pathN, path, "cannot read included file "+quote(filepath.ToSlash(shown))+": "+loadErrText(err))
	}
	f := r.e.files.get(text)
	if r.files == nil {
		r.files = map[string]*compiledFile{}
	}
	r.files[resolved] = f
	return f, nil
}
