package walk

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/loader"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/manifest"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/fileread"
	"go.yaml.in/yaml/v3"
)

// The files of a render: an $include names a file, the walker reads and
// compiles it (at most once per render, through the engine's cache) and
// gives the frame it renders in.

// OpenFile resolves p, the path an $include at key gives (pathN is where
// the path is written, path the directive's path), against the including
// file's directory; refuses a file already on the include chain and an
// include past MaxIncludeDepth; reads and compiles the file; and gives it
// with the frame it renders in.
func (r *Renderer) OpenFile(fr *diag.Frame, key, pathN *yaml.Node, path, p string) (*tree.CompiledFile, *diag.Frame, error) {
	shown := p
	if !filepath.IsAbs(p) {
		shown = filepath.Join(fr.Dir, p)
	}
	resolved := filepath.Clean(shown)
	if err := r.checkNesting(fr, key, path, resolved); err != nil {
		return nil, nil, err
	}
	f, err := r.load(fr, pathN, path, shown, resolved)
	if err != nil {
		return nil, nil, err
	}
	inc := diag.Pos{File: fr.File, Line: key.Line, Column: key.Column}
	chain := make([]diag.Pos, 0, len(fr.Chain)+1)
	chain = append(append(chain, inc), fr.Chain...)
	nf := &diag.Frame{File: filepath.ToSlash(shown), Dir: filepath.Dir(shown), Real: resolved, Chain: chain,
		Files: append(append(make([]string, 0, len(fr.Files)+1), fr.Files...), resolved)}
	if f.Err != nil {
		return nil, nil, r.compileErr(nf, f.Err)
	}
	if err := r.checkDepth(f, nf); err != nil {
		return nil, nil, err
	}
	return f, nf, nil
}

// checkNesting refuses a file already on the include chain, and an include
// past MaxIncludeDepth.
func (r *Renderer) checkNesting(fr *diag.Frame, key *yaml.Node, path, resolved string) error {
	for _, f := range fr.Files {
		if f == resolved {
			chain := append(append([]string{}, fr.Files...), resolved)
			for i := range chain {
				chain[i] = filepath.ToSlash(chain[i])
			}
			return r.ErrAt(fr, key, path, "include cycle: "+strings.Join(chain, " -> ")+"; recursion is not supported")
		}
	}
	if len(fr.Chain)+1 > r.e.opts.MaxIncludeDepth {
		return r.LimitErr(fr, key, path, "MaxIncludeDepth", "includes nest deeper than MaxIncludeDepth ("+tree.Itoa(r.e.opts.MaxIncludeDepth)+")")
	}
	return nil
}

// load reads and compiles the file, at most once per render.
func (r *Renderer) load(fr *diag.Frame, pathN *yaml.Node, path, shown, resolved string) (*tree.CompiledFile, error) {
	if f := r.files[resolved]; f != nil {
		return f, nil
	}
	text, err := r.e.opts.Loader.ReadFile(r.ctx, shown, r.e.opts.MaxTemplateBytes)
	if errors.Is(err, fileread.ErrTooLarge) {
		return nil, r.LimitErr(fr, pathN, path, "MaxTemplateBytes", "included file "+tree.Quote(filepath.ToSlash(shown))+" is larger than MaxTemplateBytes ("+tree.Itoa(r.e.opts.MaxTemplateBytes)+" bytes)")
	}
	if err != nil {
		return nil, r.ErrAt(fr, pathN, path, "cannot read included file "+tree.Quote(filepath.ToSlash(shown))+": "+loader.ErrText(err))
	}
	f := r.e.files.Get(text)
	if r.files == nil {
		r.files = map[string]*tree.CompiledFile{}
	}
	r.files[resolved] = f
	return f, nil
}

// Written reports the strings that the render's templates, the main one
// and every file it included, write (manifest.Written).
func (r *Renderer) Written() func(string) bool {
	var texts []string
	if r.main != nil {
		texts = append(texts, r.main.Text)
	}
	for _, f := range r.files {
		if f != r.main {
			texts = append(texts, f.Text)
		}
	}
	return manifest.Written(texts...)
}

// Texts is the render's cache of the files read beside the templates
// (the JSON Schemas that $schema includes), by cleaned path, so that each
// is read at most once per render.
func (r *Renderer) Texts() map[string][]byte {
	if r.texts == nil {
		r.texts = map[string][]byte{}
	}
	return r.texts
}
