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
)

// The directive table's order is the order of evaluation (preludes, then
// producers), of the missing-partner checks and of "did you mean"
// (reference §2): the order in which assemble.go lists the directives.
func TestDirectiveTable_orderIsEvaluationOrder(t *testing.T) {
	want := []string{
		"$schema", "$let", "$assert", "$msg",
		"$if", "$then", "$else", "$for", "$do", "$eval", "$key", "$value", "$include", "$with",
		"$overlay", "$expects", "$match", "$remove", "$append", "$transform",
		"$chart", "$values", "$release", "$kubeVersion", "$apiVersions", "$includeCRDs", "$hooks", "$skipTests",
	}
	if got := DirectiveNames(); !slices.Equal(got, want) {
		t.Errorf("directive table order:\n got %q\nwant %q", got, want)
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
