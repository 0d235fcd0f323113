package check

import (
	"errors"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"go.yaml.in/yaml/v3"
)

// schemaReader is a compiled $schema that reads the files it includes
// (package directive's $schema).
type schemaReader interface {
	ReadFiles(r tree.Renderer, fr *tree.Frame) error
}

// schemaFiles has check read the files the $schema at key includes, as
// render does: they are JSON Schemas, never checked as templates. A
// $schema that does not compile is the compiler's to report. path is the
// path of the mapping that holds it.
func (ck *checker) schemaFiles(fr *tree.Frame, key, v *yaml.Node, path string) {
	d, ok := tree.LookupDirective("$schema")
	if !ok || d.Prelude == nil {
		return
	}
	pre, cerr := d.Prelude(tree.NewCompiler(), nil, tree.KVPair{K: key, V: v}, path)
	sr, ok := pre.(schemaReader)
	if cerr != nil || !ok {
		return
	}
	if err := sr.ReadFiles(ck.e.NewRenderer(ck.ctx), fr); err != nil {
		var e *tree.Error
		if errors.As(err, &e) {
			ck.problems = append(ck.problems, Problem{Err: e})
		}
	}
}
