package check

import (
	"errors"
	"path/filepath"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/schema"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"go.yaml.in/yaml/v3"
)

// schemaReader is a compiled $schema that reads the files it includes
// (package directive's $schema).
type schemaReader interface {
	ReadFiles(r tree.Renderer, fr *diag.Frame) error
}

// schemaFiles has check read the files the $schema at key includes, as
// render does: they are JSON Schemas, never checked as templates. A
// $schema that does not compile is the compiler's to report. path is the
// path of the mapping that holds it.
//
// It gives the included schemas by variable, for their types (reference
// §4 $schema, `{$include: FILE}`): read once, by the render's own reading,
// so that a file is found, limited and faulted as a render finds, limits
// and faults it. A $schema with a problem gives none: its variables are
// dyn.
func (ck *checker) schemaFiles(fr *diag.Frame, key, v *yaml.Node, path string) map[string]any {
	if !hasSchemaInclude(v) {
		return nil // nothing to read: the $schema is not compiled twice
	}
	d, ok := ck.e.Table().With(func(d *tree.Directive) bool { return d.Declares })
	if !ok || d.Prelude == nil {
		return nil
	}
	pre, cerr := d.Prelude(ck.e.Table().NewCompiler(), nil, tree.KVPair{K: key, V: v}, path)
	sr, ok := pre.(schemaReader)
	if cerr != nil || !ok {
		return nil
	}
	r := ck.e.NewRenderer(ck.ctx)
	if err := sr.ReadFiles(r, fr); err != nil {
		var e *diag.Error
		if errors.As(err, &e) {
			ck.problems = append(ck.problems, Problem{Err: e})
		}
		return nil
	}
	var out map[string]any
	v = tree.Deref(v)
	for j := 0; v.Kind == yaml.MappingNode && j+1 < len(v.Content); j += 2 {
		p, isInclude := schemaIncludePath(v.Content[j+1])
		if !isInclude {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(fr.Dir, p)
		}
		text, read := r.Texts()[filepath.Clean(p)]
		var s any
		if !read || yaml.Unmarshal(text, &s) != nil {
			continue
		}
		if out == nil {
			out = map[string]any{}
		}
		out[v.Content[j].Value] = s
	}
	return out
}

// schemaIncludePath gives the FILE of a variable's schema written
// `{$include: FILE}`.
func schemaIncludePath(n *yaml.Node) (string, bool) {
	n = tree.Deref(n)
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 || n.Content[0].Value != schema.IncludeKey {
		return "", false
	}
	return tree.StringScalar(tree.Deref(n.Content[1]))
}

// hasSchemaInclude reports whether an entry of the $schema v is an
// included schema.
func hasSchemaInclude(v *yaml.Node) bool {
	v = tree.Deref(v)
	for j := 0; v.Kind == yaml.MappingNode && j+1 < len(v.Content); j += 2 {
		if _, ok := schemaIncludePath(v.Content[j+1]); ok {
			return true
		}
	}
	return false
}
