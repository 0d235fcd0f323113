package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// The directive table's order is the order of evaluation (preludes, then
// producers), of the missing-partner checks and of "did you mean"
// (reference §2): the order in which assemble.go lists the directives.
// The directives of a mapping come first, the preludes before the
// producers, and each partner follows the directive it belongs to; which
// order the preludes and producers run in is the reference's, which
// TestReference_namesEveryDirective holds the table to.
func TestDirectiveTable_orderIsEvaluationOrder(t *testing.T) {
	ds := table.Directives()
	producer := ""
	for i, d := range ds {
		if d.Kind == tree.KindProducer && producer == "" {
			producer = d.Name
		}
		if i == 0 {
			continue
		}
		prev := ds[i-1]
		switch {
		case d.Only == 0 && prev.Only != 0:
			t.Errorf("%s stands in a mapping, but comes after %s, which does not", d.Name, prev.Name)
		case d.Kind == tree.KindPrelude && producer != "":
			t.Errorf("the prelude %s comes after the producer %s", d.Name, producer)
		case d.Kind == tree.KindPartner && d.Needs != "" && prev.Name != d.Needs && prev.Needs != d.Needs:
			t.Errorf("the partner %s does not follow %s, the directive it belongs to", d.Name, d.Needs)
		}
	}
}

// Every table entry written in packages directive and overlay (a function
// giving []tree.Directive) is listed in assemble.go, and the table holds
// every name those entries write out: a directive written and not listed
// fails here rather than being silently unknown to the compiler.
func TestAssembly_listsEveryDirective(t *testing.T) {
	listed := assembledCalls(t)
	var written []string
	for _, pkg := range []string{"directive", "overlay"} {
		for fn, names := range entryFuncs(t, pkg) {
			if !listed[pkg+"."+fn] {
				t.Errorf("%s.%s gives directives %q, but assemble.go does not list it", pkg, fn, names)
			}
			written = append(written, names...)
		}
	}
	got := DirectiveNames()
	for _, name := range written {
		if !slices.Contains(got, name) {
			t.Errorf("%s is written in a table entry but is not in the table", name)
		}
	}
}

// assembledCalls gives the package-qualified functions assemble.go calls.
func assembledCalls(t *testing.T) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "assemble.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				calls[id.Name+"."+sel.Sel.Name] = true
			}
		}
		return true
	})
	return calls
}

// entryFuncs gives, for each function of package dir that returns
// []tree.Directive, the names of the entries it writes; a tree.Directive
// written outside such a function fails the test.
func entryFuncs(t *testing.T, dir string) map[string][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		inEntries := map[ast.Node]bool{}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Type.Results == nil || len(fd.Type.Results.List) != 1 || !isDirectiveSlice(fd.Type.Results.List[0].Type) {
				continue
			}
			out[fd.Name.Name] = append(out[fd.Name.Name], entryNames(fd.Body)...)
			inEntries[fd] = true
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if inEntries[n] {
				return false
			}
			if cl, ok := n.(*ast.CompositeLit); ok && (isDirective(cl.Type) || isDirectiveSlice(cl.Type)) {
				t.Errorf("%s: a tree.Directive outside a function that gives []tree.Directive", fset.Position(cl.Pos()))
			}
			return true
		})
	}
	return out
}

// entryNames gives the Name of each entry of the []tree.Directive
// literals in body.
func entryNames(body ast.Node) []string {
	var names []string
	ast.Inspect(body, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok || !isDirectiveSlice(cl.Type) {
			return true
		}
		for _, e := range cl.Elts {
			entry, ok := e.(*ast.CompositeLit)
			if !ok {
				continue
			}
			for _, f := range entry.Elts {
				kv, ok := f.(*ast.KeyValueExpr)
				if k, isIdent := kv.Key.(*ast.Ident); !ok || !isIdent || k.Name != "Name" {
					continue
				}
				if lit, ok := kv.Value.(*ast.BasicLit); ok {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						names = append(names, s)
					}
				}
			}
		}
		return false
	})
	return names
}

func isDirective(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == "tree" && sel.Sel.Name == "Directive"
}

func isDirectiveSlice(e ast.Expr) bool {
	at, ok := e.(*ast.ArrayType)
	return ok && at.Len == nil && isDirective(at.Elt)
}
