package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const modulePath = "github.com/celyaml/terraform-provider-celyaml"

// layers reads the layer table of ARCHITECTURE.md ("Which way the arrows
// point"): each row a layer number and the packages in it, as paths from
// the repository root in backquotes.
func layers(t *testing.T) map[string]int {
	t.Helper()
	row := regexp.MustCompile(`(?m)^\| (\d+) \| (.*) \|$`)
	pkg := regexp.MustCompile("`([^`]+)`")
	out := map[string]int{}
	for _, m := range row.FindAllStringSubmatch(readText(t, "ARCHITECTURE.md"), -1) {
		n, _ := strconv.Atoi(m[1])
		for _, p := range pkg.FindAllStringSubmatch(m[2], -1) {
			if prev, dup := out[p[1]]; dup {
				t.Errorf("ARCHITECTURE.md puts %s in layers %d and %d", p[1], prev, n)
			}
			out[p[1]] = n
		}
	}
	if len(out) == 0 {
		t.Fatal("ARCHITECTURE.md has no layer table")
	}
	return out
}

// packageImports gives each Go package of the module (a directory with
// Go files, outside tools/'s own modules and testdata) and the module's
// packages its non-test files import, under any build tag.
func packageImports(t *testing.T) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || path == "tools" || path == "docs") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if out[dir] == nil {
			out[dir] = map[string]bool{}
		}
		if strings.HasSuffix(path, "_test.go") {
			return nil // a package of tests only still stands in a layer
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			switch {
			case p == modulePath:
				out[dir]["."] = true
			case strings.HasPrefix(p, modulePath+"/"):
				out[dir][strings.TrimPrefix(p, modulePath+"/")] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Every package of the module stands in one layer of ARCHITECTURE.md's
// table, and imports only packages of lower layers: no arrow runs back up
// or sideways, so the house drawn there is the house the imports build.
func TestLayers_importsPointDown(t *testing.T) {
	layer := layers(t)
	pkgs := packageImports(t)
	for p, imports := range pkgs {
		l, ok := layer[p]
		if !ok {
			t.Errorf("package %s is in no layer of ARCHITECTURE.md's table: add it to the layer above everything it imports", p)
			continue
		}
		for dep := range imports {
			if dl, ok := layer[dep]; ok && dl >= l {
				t.Errorf("%s (layer %d) imports %s (layer %d): imports point only to lower layers", p, l, dep, dl)
			}
		}
	}
	for p := range layer {
		if _, ok := pkgs[p]; !ok {
			t.Errorf("ARCHITECTURE.md's layer table names %s, which is no package", p)
		}
	}
}

// The engine is wired in plain sight (ARCHITECTURE.md): no package
// registers itself in an init function, and no package-level variable of
// function type waits for another package to set it, a step that would be
// skipped silently when nobody did. Tests aside, and the benchmarks'
// throwaway programs (bench/), which set a build-tag variant's address so.
func TestLayers_noHiddenWiring(t *testing.T) {
	fset := token.NewFileSet()
	for dir := range packageImports(t) {
		if strings.HasPrefix(dir, "bench/") {
			continue
		}
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range files {
			if strings.HasSuffix(p, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range f.Decls {
				switch d := decl.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil && d.Name.Name == "init" {
						t.Errorf("%s: func init: list the step where the program is assembled instead", fset.Position(d.Pos()))
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						if v, ok := s.(*ast.ValueSpec); ok {
							if _, isFunc := v.Type.(*ast.FuncType); isFunc {
								t.Errorf("%s: package-level variable %s of function type: pass the function where it is needed instead", fset.Position(v.Pos()), v.Names[0].Name)
							}
						}
					}
				}
			}
		}
	}
}
