package check

import (
	"bytes"
	"context"
	"errors"
	"io"
	"regexp"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
	"go.yaml.in/yaml/v3"
)

// Check finds the problems of a template that show without rendering it,
// for `celyaml check`: every one it can, not only the first. A YAML syntax
// error ends its file (the parser cannot resume); a directive error ends
// only the entry of the mapping that holds it (with the directives that
// belong with it), which Check then removes and compiles on, so every
// problem of a mapping is reported, up to maxProblemsPerDocument compile
// errors a document, past which the rest of the document is still
// checked.
// Files named by a literal $include are checked too, once each, with the
// names in scope at the $include (the first one that names the file) and
// its $with entries; one that cannot be read is a problem at its
// $include.
//
// declared says which root variables exist (from values files); it may be
// nil. Warnings are problems that do not stop a render: a plain string
// holding ${{ NAME }} for a NAME in scope, the sign of a forgotten $eval.
//
// texts are the files read, the source's first, for callers that look for
// what a template reads.
func Check(ctx context.Context, e *walk.Engine, src walk.Source, declared func(string) bool) (problems []Problem, texts [][]byte) {
	ck := check(ctx, e, src, declared)
	return ck.problems, ck.texts
}

// check checks src, and gives the checker with its problems sorted.
func check(ctx context.Context, e *walk.Engine, src walk.Source, declared func(string) bool) *checker {
	ck := &checker{ctx: ctx, e: e, declared: declared, seen: map[string]bool{}}
	ck.file(walk.SourceFrame(src), src.Text, nil)
	sortByPosition(ck.problems)
	return ck
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
	// cut is what compiling the document walked excised from it, which
	// the $values check reads as written (chartvalues.go).
	cut *cuts
	// depth counts the files being read, the source 1 and its includes
	// more; docs are the source's compiled documents, in order, which
	// Render reads for the inputs (inputs.go) rather than compile again.
	depth int
	docs  []tree.Node
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
	ck.depth++
	defer func() { ck.depth-- }()
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
		n, cut := ck.document(fr, &doc)
		if ck.depth == 1 {
			ck.docs = append(ck.docs, n)
		}
		outerCut := ck.cut // an included file's documents are walked within
		ck.cut = cut
		preamble = ck.walkDocument(fr, n, preamble)
		ck.cut = outerCut
	}
}

// walkDocument checks the compiled document n with the names of preamble
// in scope, and gives the names in scope for the documents after it:
// those of preamble, and those n binds when it is a preamble (reference
// §1).
func (ck *checker) walkDocument(fr *diag.Frame, n tree.Node, preamble []string) []string {
	ck.walk(fr, n, preamble, "", true, nil)
	if !tree.IsPreamble(n) {
		return preamble
	}
	return newMapping(n).scope(ck.e.Table(), preamble)
}

// document compiles doc as check reads it (compileExcised), reporting
// each compile error, and gives the compiled tree, nil when doc does not
// compile even so, and what the compile excised.
func (ck *checker) document(fr *diag.Frame, doc *yaml.Node) (tree.Node, *cuts) {
	cut := newCuts()
	n, errs := compileRecording(ck.e.Table(), doc, cut)
	for _, cerr := range errs {
		ck.add(fr, cerr)
	}
	return n, cut
}

// excise replaces the innermost mapping or sequence of root that holds
// target with null, and reports whether it found one.
func excise(root, target *yaml.Node, cut *cuts) bool {
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
				cut.nulled(n.Content[i], c)
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

// walk visits compiled node n, written at path under the key at (nil
// for a document's root), with the names of scope in scope: the
// expressions its directives hold, the literal $include paths, and, where
// data is set, the plain strings of its constants, warning on forgotten
// $eval (a $let's templates are not warned in). A value written as an
// alias is not visited: it is checked where its anchor is written.
func (ck *checker) walk(fr *diag.Frame, n tree.Node, scope []string, path string, data bool, at *yaml.Node) {
	switch t := n.(type) {
	case nil:
	case *tree.ConstNode:
		if data && !aliased(t.Node, at) {
			ck.plainStrings(fr, t.Node, scope, path)
		}
	case *tree.SeqNode:
		if aliased(t.Node, at) {
			return
		}
		for i, e := range t.Elems {
			if i < len(t.Node.Content) && t.Node.Content[i].Kind == yaml.AliasNode {
				continue
			}
			ck.walk(fr, e, scope, path+"["+tree.Itoa(i)+"]", data, nil)
		}
	case *tree.MapNode:
		if !aliased(t.Node, at) {
			ck.mapping(fr, newMapping(t), scope, path, data)
		}
	case tree.Holder:
		for i, e := range t.Parts() {
			ck.walk(fr, e, scope, path+"["+tree.Itoa(i)+"]", data, nil)
		}
	case tree.Described:
		ck.mapping(fr, newMapping(t), scope, path, data)
	}
}

// aliased reports whether the value written at n, found under the key
// at, is written there as an alias: an alias compiles to its anchor's
// node, which stands before the key, where a value stands after it.
func aliased(n, at *yaml.Node) bool {
	return at != nil && n != nil && n.Anchor != "" && keyBefore(n, at)
}

// plainStrings warns on the plain strings of the constant written at n
// that hold ${{ NAME }} for a NAME in scope: the values of its mappings
// and the items of its sequences, not its keys, nor aliases.
func (ck *checker) plainStrings(fr *diag.Frame, n *yaml.Node, scope []string, path string) {
	switch n.Kind {
	case yaml.SequenceNode:
		for i, c := range n.Content {
			ck.plainStrings(fr, c, scope, path+"["+tree.Itoa(i)+"]")
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			ck.plainStrings(fr, n.Content[i+1], scope, tree.JoinPath(path, n.Content[i].Value))
		}
	case yaml.ScalarNode:
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

// expr checks one CEL expression x of a directive, written at path, for
// its syntax, names and types, with the names of scope in scope.
// reported holds the names found undeclared in the directive so far, each
// reported once per path. An unclosed ${{ is the compiler's to report.
func (ck *checker) expr(fr *diag.Frame, x *tree.ExprRef, scope []string, path string, reported map[string]bool) {
	d := described(ck.e.Table(), x.Bare) // none for a ${{ }} segment
	n, text, entry := x.Node, x.Text, d.Exprs == tree.ExprEntries
	declared := func(name string) bool { return ck.inScope(name, scope) }
	report := func(msg string, o int) {
		if o >= 0 {
			o += x.Off
		}
		ck.problems = append(ck.problems, Problem{Err: &diag.Error{Pos: diag.Pos{File: fr.File, Line: n.Line, Column: n.Column},
			Path: path, Msg: msg, Expr: n.Value, Offset: o, Chain: fr.Chain}})
	}
	if name, ok := ck.e.Programs().PlainName(text); ok && declared(name) {
		ck.typeCheck(text, scope, &d, report) // a name in scope alone: only its type can be wrong
		return
	}
	prog, xerr := ck.e.Programs().Compile(text, declared)
	if xerr != nil {
		report(checkCompileMsg(xerr.Msg, scope, x.Bare, entry, text), xerr.Offset)
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
			report(undeclaredMsg(fn.Name, scope, x.Bare, entry, text), fn.Offset)
		}
	}
	if !undeclared {
		ck.unknownCall(prog, report)
		if msg, _ := prog.UnknownCall(); msg == "" {
			ck.typeCheck(text, scope, &d, report) // typecheck.go
		}
	}
}
