package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The prose cannot drift from the code: every repository path and every
// Go identifier that README.md, ARCHITECTURE.md, CONTRIBUTING.md, the
// guides' templates and the package docs cite must exist. What counts as
// a citation:
//   - a path: a span in backquotes (a package doc: a word) that starts
//     with one of the repository's top folders, or names a .go, .tmpl,
//     .txtar or .sh file; a bare file name must be in the package the
//     sentence is about (a table row's first cell, the last internal/…
//     folder before it on the line, or the package whose doc it is), and
//     is looked up anywhere in the repository only when none is named;
//   - an identifier: pkg.Name or pkg.Type.Member where pkg is one of the
//     module's packages and Name is exported; Type.Member where Type is a
//     type the module declares; and, in the three contributor documents,
//     a bare exported name in backquotes (a function, type, test or
//     benchmark), apart from the few words of Kubernetes listed in
//     notGoNames.

// notGoNames are exported-looking words in backquotes that are not Go:
// Kubernetes kinds and fields, signals, and the placeholders of a
// command's usage.
var notGoNames = map[string]bool{
	"Service": true, "Secret": true, "Namespace": true, "Deployment": true, "ConfigMap": true,
	"SIGINT": true, "SIGTERM": true,
}

// toCreate are what CONTRIBUTING.md's walkthrough "add a directive" tells
// the reader to create ($default's file, function and golden folder).
var toCreate = map[string]bool{"internal/engine/directive/default.go": true, "directive.Default()": true, "internal/engine/testdata/golden/default/": true}

// topFolders are the repository's folders whose paths the docs cite.
var topFolders = []string{"internal/", "cmd/", "templates/", "docs/", "examples/", "scripts/", "tools/", "schemas/", "bench/", ".ci/", "assets/"}

// goIndex is what the module's Go files declare.
type goIndex struct {
	pkgs    map[string]map[string]bool // package name -> top-level names and Type.Member
	members map[string]bool            // Type.Member anywhere
	memberN map[string]bool            // the Member of every Type.Member
	names   map[string]bool            // every top-level name anywhere
	files   map[string][]string        // base name -> paths of files with it
	dirs    map[string]bool            // every folder
}

func indexRepository(t *testing.T) *goIndex {
	t.Helper()
	ix := &goIndex{pkgs: map[string]map[string]bool{}, members: map[string]bool{}, memberN: map[string]bool{}, names: map[string]bool{}, files: map[string][]string{}, dirs: map[string]bool{}}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		p = filepath.ToSlash(p)
		if d.IsDir() {
			if p != "." && (d.Name() == ".git" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			ix.dirs[p] = true
			return nil
		}
		ix.files[d.Name()] = append(ix.files[d.Name()], p)
		if !strings.HasSuffix(p, ".go") || strings.HasPrefix(p, "tools/") || strings.Contains(p, "/testdata/") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil //nolint:nilerr // a file the test data keeps broken on purpose
		}
		ix.add(f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func (ix *goIndex) add(f *ast.File) {
	pkg := f.Name.Name
	if ix.pkgs[pkg] == nil {
		ix.pkgs[pkg] = map[string]bool{}
	}
	def := func(name string) {
		ix.pkgs[pkg][name] = true
		if _, m, ok := strings.Cut(name, "."); ok {
			ix.members[name] = true
			ix.memberN[m] = true
		} else {
			ix.names[name] = true
		}
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				def(d.Name.Name)
				continue
			}
			if recv := receiverName(d.Recv.List[0].Type); recv != "" {
				def(recv + "." + d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					def(s.Name.Name)
					for _, m := range typeMembers(s.Type) {
						def(s.Name.Name + "." + m)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						def(n.Name)
					}
				}
			}
		}
	}
}

// receiverName is the type name of a method's receiver.
func receiverName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return receiverName(x.X)
	case *ast.IndexExpr:
		return receiverName(x.X)
	case *ast.IndexListExpr:
		return receiverName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return ""
}

// typeMembers are a struct's fields and an interface's methods.
func typeMembers(e ast.Expr) []string {
	var fields *ast.FieldList
	switch x := e.(type) {
	case *ast.StructType:
		fields = x.Fields
	case *ast.InterfaceType:
		fields = x.Methods
	default:
		return nil
	}
	var out []string
	for _, f := range fields.List {
		for _, n := range f.Names {
			out = append(out, n.Name)
		}
		if len(f.Names) == 0 { // embedded
			if n := receiverName(f.Type); n != "" {
				out = append(out, n)
			} else if sel, ok := f.Type.(*ast.SelectorExpr); ok {
				out = append(out, sel.Sel.Name)
			}
		}
	}
	return out
}

var (
	backquoted  = regexp.MustCompile("`([^`\n]+)`")
	contextPkg  = regexp.MustCompile(`internal/[a-z0-9_/]*[a-z0-9_]`)
	tableRowPkg = regexp.MustCompile("^\\| `(internal/[a-z0-9_/]+)`")
	qualified   = regexp.MustCompile(`^([a-z][a-z0-9]*)\.([A-Z]\w*)(?:\.([A-Z]\w*))?(?:\(\))?$`)
	member      = regexp.MustCompile(`^([A-Z]\w*)\.([A-Z]\w*)(?:\(\))?$`)
	bareName    = regexp.MustCompile(`^[A-Z]\w*[a-z]\w*$`)
	fileLike    = regexp.MustCompile(`\.(go|tmpl|txtar|sh)$`)
	docWord     = regexp.MustCompile(`[A-Za-z0-9_./*-]+`)
	docFile     = regexp.MustCompile(`^[\w./-]+\.(go|tmpl|txtar|sh|md)$`)
	placeholder = regexp.MustCompile(`[*$~<>{}]|://|\bX\b|FuzzX|\.\.\.|…`)
)

// checkPath reports whether path p, cited in the context of package
// folder ctx ("" for none), exists.
func (ix *goIndex) checkPath(p, ctx string) bool {
	p = strings.TrimSuffix(strings.TrimSuffix(p, "/"), ":")
	if p == "" {
		return true
	}
	if _, err := os.Stat(p); err == nil {
		return true
	}
	if ctx != "" {
		if _, err := os.Stat(path.Join(ctx, p)); err == nil {
			return true
		}
		if !strings.Contains(p, "/") {
			return false // a file of the package the sentence is about
		}
	}
	if !strings.Contains(p, "/") {
		return len(ix.files[p]) > 0 || ix.hasDirNamed(p)
	}
	// a path from inside some folder (testdata/hostile/, celenv/celval)
	for d := range ix.dirs {
		if strings.HasSuffix(d, "/"+p) {
			return true
		}
	}
	for _, paths := range ix.files {
		for _, f := range paths {
			if strings.HasSuffix(f, "/"+p) {
				return true
			}
		}
	}
	return false
}

func (ix *goIndex) hasDirNamed(name string) bool {
	for d := range ix.dirs {
		if path.Base(d) == name {
			return true
		}
	}
	return false
}

// checkIdent reports whether identifier s exists, and whether s is an
// identifier this test checks at all; bare says a bare name is checked.
func (ix *goIndex) checkIdent(s string, bare bool) (ok, checked bool) {
	if m := qualified.FindStringSubmatch(s); m != nil {
		pkg, ok := ix.pkgs[m[1]]
		if !ok || m[1] == "main" {
			return true, false // not one of the module's packages
		}
		name := m[2]
		if m[3] != "" {
			name += "." + m[3]
		}
		return pkg[name], true
	}
	if m := member.FindStringSubmatch(s); m != nil {
		if !ix.names[m[1]] {
			return true, false // not a type of the module
		}
		return ix.members[m[1]+"."+m[2]], true
	}
	name := strings.TrimSuffix(s, "()")
	if bare && bareName.MatchString(name) && !notGoNames[name] {
		return ix.names[name] || ix.memberN[name], true
	}
	return true, false
}

// citedIn checks the backquoted spans of a Markdown document.
func (ix *goIndex) citedIn(t *testing.T, file string, bare bool) (checked int) {
	t.Helper()
	for n, line := range strings.Split(readText(t, file), "\n") {
		for _, m := range backquoted.FindAllStringSubmatchIndex(line, -1) {
			span := line[m[2]:m[3]]
			ctx := citingPackage(line, m[0])
			if ok, did := ix.citation(span, ctx, bare); did {
				checked++
				if !ok {
					t.Errorf("%s:%d: cites `%s`, which does not exist", file, n+1, span)
				}
			}
		}
	}
	return checked
}

// citingPackage is the package folder a sentence is about at offset at
// of line: a table row's first cell, or else the last folder under
// internal/ named before at ("" for none).
func citingPackage(line string, at int) string {
	if m := tableRowPkg.FindStringSubmatch(line); m != nil {
		return m[1]
	}
	c := contextPkg.FindAllString(line[:at], -1)
	for i := len(c) - 1; i >= 0; i-- {
		if fi, err := os.Stat(c[i]); err == nil && fi.IsDir() {
			return c[i]
		}
	}
	return ""
}

// citation checks one cited span.
func (ix *goIndex) citation(span, ctx string, bare bool) (ok, checked bool) {
	if placeholder.MatchString(span) || strings.ContainsAny(span, " \t") || toCreate[span] {
		return true, false
	}
	if isPath(span) {
		return ix.checkPath(span, ctx), true
	}
	return ix.checkIdent(span, bare)
}

func isPath(s string) bool {
	for _, top := range topFolders {
		if strings.HasPrefix(s, top) {
			return true
		}
	}
	return fileLike.MatchString(s) || s == "README.md" || s == "ARCHITECTURE.md" || s == "CONTRIBUTING.md" || s == "CHANGELOG.md"
}

func TestDocs_citedPathsAndNamesExist(t *testing.T) {
	ix := indexRepository(t)
	checked := 0
	for _, f := range []string{"README.md", "ARCHITECTURE.md", "CONTRIBUTING.md"} {
		checked += ix.citedIn(t, f, true)
	}
	guides, err := filepath.Glob("templates/guides/*.tmpl")
	if err != nil || len(guides) == 0 {
		t.Fatalf("no guides: %v", err)
	}
	for _, f := range guides {
		checked += ix.citedIn(t, f, false)
	}
	checked += ix.packageDocs(t)
	if checked < 200 {
		t.Errorf("only %d citations checked: the test no longer finds them", checked)
	}
}

// packageDocs checks the paths and qualified names the package docs cite.
func (ix *goIndex) packageDocs(t *testing.T) (checked int) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		p = filepath.ToSlash(p)
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" || p == "tools") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil || f.Doc == nil {
			return err
		}
		dir := path.Dir(p)
		for n, line := range strings.Split(f.Doc.Text(), "\n") {
			for _, w := range docWord.FindAllString(line, -1) {
				w = strings.TrimRight(w, ".,;:")
				var ok, did bool
				switch {
				case isPath(w) && (strings.Contains(w, "/") || docFile.MatchString(w)):
					if !placeholder.MatchString(w) {
						ok, did = ix.checkPath(w, dir), true
					}
				default:
					ok, did = ix.checkIdent(w, false)
				}
				if did {
					checked++
					if !ok {
						t.Errorf("%s: package doc, line %d, cites %s, which does not exist", p, n+1, w)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return checked
}
