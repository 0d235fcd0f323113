package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// Every directive of the table carries its description, which check, its
// type checker, the language server's symbols, the editor schema and the
// hints read instead of naming the directive: a directive added without
// one fails here, and so does a description that contradicts itself.
func TestDirectiveTable_everyDirectiveIsDescribed(t *testing.T) {
	reference, err := os.ReadFile("../../docs/guides/language-reference.md")
	if err != nil {
		t.Fatalf("reading the language reference: %v (run make docs)", err)
	}
	for _, d := range table.Directives() {
		if d.Summary == "" || d.Section == 0 {
			t.Errorf("%s: no Summary or no Section in its description", d.Name)
		}
		if !strings.Contains(string(reference), `<a id="`+d.Anchor()+`"></a>`) {
			t.Errorf("%s: the language reference has no anchor %s for it", d.Name, d.Anchor())
		}
		binds := d.Bound == tree.BindEntries || d.Bound == tree.BindLoop || d.Bound == tree.BindFixed
		if binds != (d.BoundKind != "") {
			t.Errorf("%s: Bound %d with BoundKind %q: a directive that binds names in its mapping labels them, and only one", d.Name, d.Bound, d.BoundKind)
		}
		if (d.Bound == tree.BindFixed) != (len(d.BoundNames) > 0) {
			t.Errorf("%s: BoundNames %q go with BindFixed and only with it", d.Name, d.BoundNames)
		}
		if (d.Bound == tree.BindLoop) != (d.Exprs == tree.ExprLoop) {
			t.Errorf("%s: a loop's names come from its \"NAME in EXPR\": BindLoop goes with ExprLoop", d.Name)
		}
		if (d.Must == tree.MustBool) != (d.MustWhat != "") {
			t.Errorf("%s: MustWhat %q names the expression that must be a bool, and only it", d.Name, d.MustWhat)
		}
		if d.Must != tree.MustAny && d.Exprs != tree.ExprBare && d.Exprs != tree.ExprBareList && d.Exprs != tree.ExprLoop {
			t.Errorf("%s: Must is for a bare expression's result", d.Name)
		}
		if d.Declares && d.Bound != tree.BindEntries {
			t.Errorf("%s: a directive that declares variables binds its entries", d.Name)
		}
	}
}

// No directive's name is written as a string literal outside the package
// that gives its table entry (its code and its description; for an entry
// whose name is not written as a literal, the packages assemble.go
// lists) and the tests: the
// other readers take what they need from the description. The exceptions
// are JSON Schema's words that are spelt as a directive is: its "$schema"
// keyword, and the key of a variable's schema kept in a file,
// `{$include: FILE}`, which the schema package names once.
func TestDirectiveNames_writtenOnlyInTheirOwnCode(t *testing.T) {
	names := map[string]bool{}
	for _, n := range table.Names() {
		names[n] = true
	}
	allowed := map[string]string{
		"internal/engine/schema/include.go":  "$include", // IncludeKey
		"internal/engine/schema/keywords.go": "$schema",  // JSON Schema's keyword
		"internal/cli/schema.go":             "$schema",  // the editor schema's own keyword
	}
	root := "../.."
	home := map[string]string{} // directive → the folder of the file that writes its entry (Name: "$x")
	type literal struct {
		dir, file, name string
		pos             token.Position
	}
	var found []literal
	for _, top := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.KeyValueExpr:
					if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Name" {
						if s, ok := stringLit(n.Value); ok && names[s] {
							home[s] = filepath.Dir(rel)
						}
					}
				case *ast.BasicLit:
					if s, ok := stringLit(n); ok && names[s] && allowed[rel] != s {
						found = append(found, literal{dir: filepath.Dir(rel), file: rel, name: s, pos: fset.Position(n.Pos())})
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// A name written as a variable (Name: k) has for its home the packages
	// whose entries assemble.go lists.
	listed := map[string]bool{}
	for call := range assembledCalls(t) {
		listed["internal/engine/"+strings.SplitN(call, ".", 2)[0]] = true
	}
	for _, l := range found {
		if h := home[l.name]; l.dir != h && (h != "" || !listed[l.dir]) {
			t.Errorf("%s:%d: %q written outside %s, the package that gives its table entry: read its description in the directive table instead", l.file, l.pos.Line, l.name, h)
		}
	}
}

// stringLit gives the value of a string literal.
func stringLit(e ast.Expr) (string, bool) {
	b, ok := e.(*ast.BasicLit)
	if !ok || b.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(b.Value)
	return s, err == nil
}
