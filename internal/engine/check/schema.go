package check

import (
	"errors"
	"path/filepath"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/schema"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"go.yaml.in/yaml/v3"
)

// schemaReader is a compiled $schema that lists the variables whose
// schema is in a file and reads those files (package directive's
// $schema).
type schemaReader interface {
	Includes() []schema.Include
	ReadFiles(r tree.Renderer, fr *diag.Frame, path string) error
}

// schemaFiles has check read the files the compiled $schema n includes,
// as render does: they are JSON Schemas, never checked as templates. path
// is the $schema's path, as check writes it.
//
// It gives the included schemas by variable, for their types (reference
// §4 $schema, `{$include: FILE}`): read once, by the render's own reading,
// so that a file is found, limited and faulted as a render finds, limits
// and faults it. A variable whose file is not read has a nil schema: it
// is dyn, as are all of a $schema with a problem.
func (ck *checker) schemaFiles(fr *diag.Frame, n tree.Node, path string) map[string]any {
	sr, ok := n.(schemaReader)
	if !ok {
		return nil
	}
	incs := sr.Includes()
	if len(incs) == 0 {
		return nil // nothing to read
	}
	out := make(map[string]any, len(incs))
	for _, inc := range incs {
		out[inc.Name] = nil
	}
	r := ck.e.NewRenderer(ck.ctx)
	if err := sr.ReadFiles(r, fr, path); err != nil {
		var e *diag.Error
		if errors.As(err, &e) {
			ck.problems = append(ck.problems, Problem{Err: e})
		}
		return out
	}
	for _, inc := range incs {
		p := inc.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(fr.Dir, p)
		}
		text, read := r.Texts()[filepath.Clean(p)]
		var s any
		if read && yaml.Unmarshal(text, &s) == nil {
			out[inc.Name] = s
		}
	}
	return out
}
