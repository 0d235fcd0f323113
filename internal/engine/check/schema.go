package check

import (
	"errors"
	"path/filepath"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/schema"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"go.yaml.in/yaml/v3"
)

// schemaReader is a compiled $schema that reads the files it includes
// (package directive's $schema).
type schemaReader interface {
	ReadFiles(r tree.Renderer, fr *tree.Frame) error
}

// schemaFiles has check read the files the compiled $schema n, described
// by desc, includes, as render does: they are JSON Schemas, never checked
// as templates.
//
// It gives the included schemas by variable, for their types (reference
// §4 $schema, `{$include: FILE}`): read once, by the render's own reading,
// so that a file is found, limited and faulted as a render finds, limits
// and faults it. A $schema with a problem gives none: its variables are
// dyn.
func (ck *checker) schemaFiles(fr *tree.Frame, n tree.Node, desc tree.Description) map[string]any {
	sr, ok := n.(schemaReader)
	if !ok || !hasSchemaInclude(desc) {
		return nil
	}
	r := ck.e.NewRenderer(ck.ctx)
	if err := sr.ReadFiles(r, fr); err != nil {
		var e *tree.Error
		if errors.As(err, &e) {
			ck.problems = append(ck.problems, Problem{Err: e})
		}
		return nil
	}
	var out map[string]any
	for _, b := range desc.Binds {
		p, isInclude := schemaIncludePath(b.Value)
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
		out[b.Name] = s
	}
	return out
}

// schemaIncludePath gives the FILE of a variable's schema written
// `{$include: FILE}`.
func schemaIncludePath(n *yaml.Node) (string, bool) {
	if n == nil {
		return "", false
	}
	n = tree.Deref(n)
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 || n.Content[0].Value != schema.IncludeKey {
		return "", false
	}
	return tree.StringScalar(tree.Deref(n.Content[1]))
}

// hasSchemaInclude reports whether an entry of the $schema desc is an
// included schema.
func hasSchemaInclude(desc tree.Description) bool {
	for _, b := range desc.Binds {
		if _, ok := schemaIncludePath(b.Value); ok {
			return true
		}
	}
	return false
}
