package check

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"go.yaml.in/yaml/v3"
)

// The readers of a template that do not render it (check, its type
// checker, the symbols) read the tree the compiler builds, as the render
// does. The compiler stops at a template's first error; a reader goes on:
// compileExcised removes what holds each error and compiles again, so a
// template with errors still gives a compiled tree of what is sound.

// compileExcised compiles doc with table t until it compiles, each error
// excising the entry of the mapping that holds it (with the directives
// that belong with it) or else the innermost mapping or sequence that
// holds it, in doc itself. It gives the compiled tree and the errors met
// on the way, in the order met; the tree is nil when doc does not compile
// even so (an error without a node, or more than maxProblemsPerDocument).
func compileExcised(t *tree.Table, doc *yaml.Node) (tree.Node, []*tree.CompileError) {
	var errs []*tree.CompileError
	for range maxProblemsPerDocument {
		n, cerr := t.NewCompiler().Document(doc)
		if cerr == nil {
			return n, errs
		}
		errs = append(errs, cerr)
		if cerr.Node == nil || (!excisePair(t, doc, cerr.Node) && !excise(doc, cerr.Node)) {
			return nil, errs
		}
	}
	return nil, errs
}
