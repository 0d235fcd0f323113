package check

import (
	"bytes"
	"context"
	"errors"
	"io"
	"regexp"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/segment"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
	"go.yaml.in/yaml/v3"
)

// Check finds the problems of a template that show without rendering it,
// for `celyaml check`: every one it can, not only the first. A YAML syntax
// error ends its file (the parser cannot resume); a directive error ends
// only the entry of the mapping that holds it (with the directives that
// belong with it), which Check then removes and compiles on, so every
// problem of a mapping is reported. Files named by a literal $include are checked too, once
// each, with the names in scope at the $include (the first one that
// names the file) and its $with entries; one that cannot be read is a
// problem at its $include.
//
// declared says which root variables exist (from values files); it may be
// nil. Warnings are problems that do not stop a render: a plain string
// holding ${{ NAME }} for a NAME in scope, the sign of a forgotten $eval.
//
// texts are the files read, the source's first, for callers that look for
// what a template reads.
func Check(ctx context.Context, e *walk.Engine, src walk.Source, declared func(string) bool) (problems []Problem, texts [][]byte) {
	ck := &checker{ctx: ctx, e: e, declared: declared, seen: map[string]bool{}}
	ck.file(walk.SourceFrame(src), src.Text, nil)
	sortByPosition(ck.problems)
	return ck.problems, ck.texts
}

// Problem is one finding of Check.
type Problem struct {
	Err     *diag.Error
	Warning bool
}

// maxProblemsPerDocument bounds the compile-and-excise loop.
const maxProblemsPerDocument = 100

type checker struct {
	ctx      context.Context // stops the reads of included files
	e        *walk.Engine
	declared func(string) bool
	seen     map[string]bool
	problems []Problem
	texts    [][]byte
	types    typeState // typecheck.go
}

func (ck *checker) add(fr *diag.Frame, c *tree.CompileError) {
	ck.problems = append(ck.problems, Problem{Err: c.In(fr)})
}

// file checks one template file's text.
// outer are the names in scope where an $include brought the file in.
func (ck *checker) file(fr *diag.Frame, text []byte, outer []string) {
	if fr.Real != "" {
		if ck.seen[fr.Real] {
			return
		}
		ck.seen[fr.Real] = true
	}
	ck.texts = append(ck.texts, text)
	outerTypes := ck.types.frames // an included file's names are dyn
	ck.types.frames = nil
	defer func() { ck.types.frames = outerTypes }()
	if err := tree.CheckText(text); err != nil {
		ck.add(fr, err)
		return
	}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	preamble := outer // and the names a preamble declares for the documents after it
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			ck.add(fr, tree.YAMLParseError(err, text))
			return
		}
		if root := doc.Content[0]; root.Kind == yaml.MappingNode {
			ck.chartValues(fr, root, preamble) // chartvalues.go, before compiling excises a faulty entry
		}
		ck.document(fr, &doc)
		ck.walk(fr, &doc, preamble, false, "")
		if root := doc.Content[0]; root.Kind == yaml.MappingNode && preludeOnly(ck.e.Table(), root) {
			preamble = mappingScope(ck.e.Table(), root, preamble)
		}
	}
}

// document compiles doc as check reads it (compileExcised), reporting
// each compile error, and gives the compiled tree; nil when doc does not
// compile even so.
func (ck *checker) document(fr *diag.Frame, doc *yaml.Node) tree.Node {
	n, errs := compileExcised(ck.e.Table(), doc)
	for _, cerr := range errs {
		ck.add(fr, cerr)
	}
	return n
}

// excise replaces the innermost mapping or sequence of root that holds
// target with null, and reports whether it found one.
func excise(root, target *yaml.Node) bool {
	var visit func(n *yaml.Node) (holder bool, done bool)
	visit = func(n *yaml.Node) (bool, bool) {
		for i, c := range n.Content {
			if c == target {
				return true, false
			}
			if c.Kind == yaml.AliasNode {
				continue
			}
			holder, done := visit(c)
			if done {
				return false, true
			}
			if holder && n.Kind != yaml.DocumentNode {
				n.Content[i] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null", Line: c.Line, Column: c.Column}
				return false, true
			}
			if holder {
				return true, false
			}
		}
		return false, false
	}
	_, done := visit(root)
	return done
}

// plainVar finds ${{ NAME }} or ${{ NAME.field }} in a plain string.
var plainVar = regexp.MustCompile(`\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)[\s.}\[]`)

// described gives the description of directive k in table t (what its
// value holds and binds), or the zero description of a template when k is
// no directive.
func described(t *tree.Table, k string) tree.Directive {
	d, _ := t.Lookup(k)
	return d
}

// walk visits the plain data of n with the variables in scope, warning on
// forgotten $eval, and checks literal $include paths.
func (ck *checker) walk(fr *diag.Frame, n *yaml.Node, scope []string, inExpr bool, path string) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			ck.walk(fr, c, scope, inExpr, path)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			ck.walk(fr, c, scope, inExpr, path+"["+tree.Itoa(i)+"]")
		}
	case yaml.MappingNode:
		before := scope
		scope = mappingScope(ck.e.Table(), n, scope)
		var included map[string]any
		for i := 0; i+1 < len(n.Content); i += 2 {
			if described(ck.e.Table(), n.Content[i].Value).Declares {
				included = ck.schemaFiles(fr, n.Content[i], n.Content[i+1], path) // schema.go
			}
		}
		ck.pushTypes(n, before, scope, included) // typecheck.go
		defer ck.popTypes()
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := tree.JoinPath(path, k.Value)
			d := described(ck.e.Table(), k.Value)
			if d.Declares {
				continue
			}
			if d.Exprs == tree.ExprEntries && tree.Deref(v).Kind == yaml.MappingNode {
				ck.walkLet(fr, n, i, before, p)
				continue
			}
			if d.Includes {
				ck.include(fr, k, v, p, scope, withNames(ck.e.Table(), n, scope))
			}
			ck.exprs(fr, &d, tree.Deref(v), scope, p)
			ck.walk(fr, v, scope, inExpr || !d.HoldsData(), p)
		}
	case yaml.ScalarNode:
		if inExpr {
			return
		}
		for _, m := range plainVar.FindAllStringSubmatch(n.Value, -1) {
			if ck.inScope(m[1], scope) {
				ck.problems = append(ck.problems, Problem{Warning: true, Err: &diag.Error{
					Pos: diag.Pos{File: fr.File, Line: n.Line, Column: n.Column}, Path: path, Offset: -1, Chain: fr.Chain,
					Msg: "plain string holds ${{ " + m[1] + " }} and " + m[1] + " is a variable in scope, but a plain string is not evaluated: write $eval: " + tree.Quote(n.Value) + " to interpolate it"}})
			}
		}
	}
}

func (ck *checker) inScope(name string, scope []string) bool {
	for _, s := range scope {
		if s == name {
			return true
		}
	}
	return ck.declared != nil && ck.declared(name)
}

// preludeOnly reports whether a document root is a preamble, whose names
// the later documents see (reference §1): only prelude directives and
// their partners, and at least one that binds names, as the renderer's
// IsPreamble decides.
func preludeOnly(t *tree.Table, m *yaml.Node) bool {
	binds := false
	for i := 0; i < len(m.Content); i += 2 {
		k := m.Content[i].Value
		if !t.StandsBesidePreludes(k) {
			return false
		}
		binds = binds || described(t, k).Binds
	}
	return binds
}

// exprs compiles the CEL expressions the value v of directive d holds, as
// its description says (bare, a list of bare ones, a loop's, a mapping's
// entries, ${{ }} segments), for their syntax, names and types. An
// unclosed ${{ is the compiler's to report.
func (ck *checker) exprs(fr *diag.Frame, d *tree.Directive, v *yaml.Node, scope []string, path string) {
	reported := map[string]bool{} // an undeclared name once per directive
	bare := func(n *yaml.Node, text string, off int, path string, bareDir string) {
		declared := func(name string) bool { return ck.inScope(name, scope) }
		report := func(msg string, o int) {
			if o >= 0 {
				o += off
			}
			ck.problems = append(ck.problems, Problem{Err: &diag.Error{Pos: diag.Pos{File: fr.File, Line: n.Line, Column: n.Column},
				Path: path, Msg: msg, Expr: n.Value, Offset: o, Chain: fr.Chain}})
		}
		if name, ok := ck.e.Programs().PlainName(text); ok && declared(name) {
			ck.typeCheck(text, scope, d, report) // a name in scope alone: only its type can be wrong
			return
		}
		prog, xerr := ck.e.Programs().Compile(text, declared)
		if xerr != nil {
			report(checkCompileMsg(xerr.Msg, scope, bareDir, d.Exprs == tree.ExprEntries, text), xerr.Offset)
			return
		}
		names, _ := ck.e.Programs().FreeNames(text)
		undeclared := false
		for _, fn := range names {
			if !declared(fn.Name) && !reported[path+"\x00"+fn.Name] {
				reported[path+"\x00"+fn.Name], undeclared = true, true
				if msg, o := prog.MisspeltCall(fn.Name); msg != "" {
					report(msg, o)
					continue
				}
				report(undeclaredMsg(fn.Name, scope, bareDir, d.Exprs == tree.ExprEntries, text), fn.Offset)
			}
		}
		if !undeclared {
			ck.unknownCall(prog, report)
			if msg, _ := prog.UnknownCall(); msg == "" {
				ck.typeCheck(text, scope, d, report) // typecheck.go
			}
		}
	}
	s, isStr := tree.StringScalar(v)
	dir := d.Name
	switch d.Exprs {
	case tree.ExprBare, tree.ExprBareList:
		if isStr {
			bare(v, s, 0, path, dir)
		} else if v.Kind == yaml.SequenceNode && d.Exprs == tree.ExprBareList {
			for i, c := range v.Content {
				if cs, ok := tree.StringScalar(tree.Deref(c)); ok {
					bare(tree.Deref(c), cs, 0, path+"["+tree.Itoa(i)+"]", dir)
				}
			}
		}
	case tree.ExprLoop:
		if m := tree.ForSyntax.FindStringSubmatchIndex(s); isStr && m != nil {
			bare(v, s[m[1]:], m[1], path, dir)
		}
	case tree.ExprEntries:
		for i := 0; v.Kind == yaml.MappingNode && i+1 < len(v.Content); i += 2 {
			if es, ok := tree.StringScalar(tree.Deref(v.Content[i+1])); ok {
				bare(tree.Deref(v.Content[i+1]), es, 0, tree.JoinPath(path, v.Content[i].Value), dir)
			}
		}
	case tree.ExprSegments:
		segs, xerr := segment.Scan(s)
		for _, sg := range segs {
			if isStr && xerr == nil && sg.Expr {
				bare(v, sg.Text, sg.Off, path, "")
			}
		}
	}
}
