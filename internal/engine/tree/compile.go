package tree

import (
	"math"
	"regexp"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/lex"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// A template is compiled once into a tree of Nodes. Plain data becomes
// constant values, shared by every render; mappings with directives become
// MapNodes whose directives are checked up front, so a misspelt directive or
// a missing partner is reported even in a branch that is not taken.

// Node is a compiled template node: *ConstNode, *SeqNode, *MapNode, or a
// SelfRenderer compiled outside the walker (an overlay, an edit list).
type Node interface{}

// ConstNode is plain data: no directive anywhere below it.
type ConstNode struct {
	Node  *yaml.Node // where it is written, for limit errors
	Path  string
	Value value.Value
	Nodes int // output nodes it holds, saturating
	Bytes int // rough size of its text, saturating
}

// SeqNode is a sequence with directives in some of its items.
type SeqNode struct {
	Node  *yaml.Node
	Path  string
	Elems []Node
}

// ExprRef is one CEL expression in the template.
type ExprRef struct {
	Text  string     // the expression
	Shown string     // the template text shown with a caret in errors
	Off   int        // offset of text within shown
	Node  *yaml.Node // where it is written
	Path  string     // directive path
	// Bare names the directive that takes the expression as a whole string
	// ("$if", "$let", ...), for hints about the mistakes made there: "" for
	// a ${{ }} segment.
	Bare string
	// Fast is set when the expression is only a variable or a chain of
	// field selections (`v`, `svc.name`): it is then read directly from
	// the scope, without running a CEL program.
	Fast []string
	// Eq is set when the expression compares such a chain with a string
	// literal (`doc.kind == 'Deployment'`), the usual condition of an
	// overlay and a list edit: a string found there is compared directly.
	Eq *EqFast
}

// EqFast is `PATH == 'LITERAL'`.
type EqFast struct {
	Path []string
	Lit  string
}

// eqForm matches `a.b == 'text'` or `a.b == "text"`, the literal without
// escapes.
var eqForm = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*==\s*(?:'([^'\\\n]*)'|"([^"\\\n]*)")\s*$`)

// eqPath gives the eqFast form of text, or nil.
func eqPath(text string) *EqFast {
	if len(text) > 256 {
		return nil
	}
	m := eqForm.FindStringSubmatch(text)
	if m == nil {
		return nil
	}
	path := identPath(m[1])
	if path == nil {
		return nil
	}
	return &EqFast{Path: path, Lit: m[2] + m[3]}
}

// NewExprRef prepares an expression.
func NewExprRef(x ExprRef) *ExprRef {
	x.Fast = identPath(x.Text)
	x.Eq = eqPath(x.Text)
	return &x
}

// identPath splits "a.b.c" (spaces around allowed) into its names, or
// returns nil when the text is anything else.
func identPath(text string) []string {
	t := strings.TrimSpace(text)
	if t == "" || len(t) > 256 {
		return nil
	}
	parts := strings.Split(t, ".")
	for _, p := range parts {
		if !lex.IsIdent(p) {
			return nil
		}
	}
	return parts
}

// CompileError is an error found while compiling; it gets its file and
// include chain when a render reaches the file.
type CompileError struct {
	Node         *yaml.Node
	line, column int // used when node is nil
	Path, Msg    string
	Expr         string
	Offset       int
}

// Compiler compiles a template's YAML nodes into Nodes; the directives
// compile their bodies with Compile.
type Compiler struct {
	t       *Table
	aliases map[aliasKey]Node
	active  map[*yaml.Node]bool
	// patch is set while compiling an overlay's patch, where a sequence
	// of list edits edits the document (reference §8).
	Patch bool
	Edits int // edit lists compiled so far
	// KeepYAML is set by the readers that do not render a template
	// (check, the language server's symbols): a constant then keeps the
	// YAML below its node, whose keys' and scalars' positions and plain
	// strings they read, rather than its position alone (detached). A
	// render leaves it unset, so a compiled file does not hold its parsed
	// YAML.
	KeepYAML bool
}

// aliasKey is an anchored node as compiled in one context: in an overlay's
// patch, the same node may compile to a list edit.
type aliasKey struct {
	n     *yaml.Node
	patch bool
}

// Table is the directive table the compiler reads.
func (c *Compiler) Table() *Table { return c.t }

// NewCompiler returns a compiler for one file, reading table t.
func (t *Table) NewCompiler() *Compiler {
	return &Compiler{t: t, aliases: map[aliasKey]Node{}, active: map[*yaml.Node]bool{}}
}

// CompileErrorAt is the compile error msg at node n, path the directive's
// path.
func CompileErrorAt(n *yaml.Node, path, msg string) *CompileError {
	return &CompileError{Node: n, Path: path, Msg: msg, Offset: -1}
}

// CompileErrorAtLine is the compile error msg at line and column, where
// no node stands (a file that is not YAML).
func CompileErrorAtLine(line, column int, msg string) *CompileError {
	return &CompileError{line: line, column: column, Msg: msg, Offset: -1}
}

// FromNodeError is a yamlnode error as a compile error at path.
func FromNodeError(e *yamlnode.Error, path string) *CompileError {
	return &CompileError{Node: e.Node, Path: path, Msg: e.Msg, Offset: -1}
}

// Document compiles one YAML document: an overlay when its root holds
// $overlay, a transform when it holds $transform (the document
// directives of the table, KindOverlay, in table order), otherwise its
// root node.
func (c *Compiler) Document(doc *yaml.Node) (Node, *CompileError) {
	if doc.Kind != yaml.DocumentNode {
		return c.Compile(doc, "")
	}
	if len(doc.Content) == 0 {
		return &ConstNode{Node: doc, Value: nil, Nodes: 1}, nil
	}
	if root := Deref(doc.Content[0]); root.Kind == yaml.MappingNode {
		if d := c.t.rootDirective(root); d != nil {
			keys, err := c.ReadKeys(root, "", d.Only)
			if err != nil {
				return nil, err
			}
			return d.Overlay(c, root, keys)
		}
	}
	return c.Compile(doc.Content[0], "")
}

// JoinPath appends key to a dotted path.
func JoinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func addSat(a, b int) int {
	if a > math.MaxInt32 || b > math.MaxInt32 {
		return math.MaxInt32 * 2
	}
	return a + b
}

// Deref follows an alias.
func Deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// Compile compiles node n, at path, into a Node.
func (c *Compiler) Compile(n *yaml.Node, path string) (Node, *CompileError) {
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, CompileErrorAt(n, path, "alias to an unknown anchor")
		}
		if t, ok := c.aliases[aliasKey{n.Alias, c.Patch}]; ok {
			return t, nil
		}
		if c.active[n.Alias] {
			return nil, CompileErrorAt(n, path, "alias *"+n.Value+" refers to a node that contains it")
		}
		c.active[n.Alias] = true
		t, err := c.Compile(n.Alias, path)
		delete(c.active, n.Alias)
		if err != nil {
			return nil, err
		}
		c.aliases[aliasKey{n.Alias, c.Patch}] = t
		return t, nil
	case yaml.ScalarNode:
		v, err := yamlnode.Scalar(n)
		if err != nil {
			return nil, FromNodeError(err, path)
		}
		b := 8
		if s, ok := v.(string); ok {
			b = len(s)
		}
		return &ConstNode{Node: n, Path: path, Value: v, Nodes: 1, Bytes: b}, nil
	case yaml.SequenceNode:
		return c.sequence(n, path)
	case yaml.MappingNode:
		return c.mapping(n, path)
	case yaml.DocumentNode:
		return c.Document(n)
	}
	return nil, CompileErrorAt(n, path, "unsupported YAML node")
}

func (c *Compiler) sequence(n *yaml.Node, path string) (Node, *CompileError) {
	if c.Patch {
		if t, err := c.t.editList(c, n, path); t != nil || err != nil {
			return t, err
		}
		// A sequence that is not an edit list replaces the document's:
		// its items are plain templates.
		c.Patch = false
		defer func() { c.Patch = true }()
	}
	elems := make([]Node, len(n.Content))
	consts := make([]*ConstNode, 0, len(n.Content))
	for i, e := range n.Content {
		t, err := c.Compile(e, path+"["+Itoa(i)+"]")
		if err != nil {
			return nil, err
		}
		elems[i] = t
		if k, ok := t.(*ConstNode); ok {
			consts = append(consts, k)
		}
	}
	if len(consts) < len(elems) {
		return &SeqNode{Node: n, Path: path, Elems: elems}, nil
	}
	out := make([]value.Value, len(consts))
	cn := &ConstNode{Node: c.detached(n), Path: path, Nodes: 1, Bytes: 2}
	for i, k := range consts {
		out[i] = k.Value
		cn.Nodes = addSat(cn.Nodes, k.Nodes)
		cn.Bytes = addSat(cn.Bytes, k.Bytes+3)
	}
	cn.Value = out
	return cn, nil
}

// detached is n without the nodes below it: all a constant needs of its
// node is where it is written, and keeping the parsed YAML below it would
// hold every node of a large included file (a vendored bundle) in memory
// for as long as the compiled file is kept, beside the values made of it.
// With KeepYAML, it is n.
func (c *Compiler) detached(n *yaml.Node) *yaml.Node {
	if n == nil || len(n.Content) == 0 || c.KeepYAML {
		return n
	}
	return &yaml.Node{Kind: n.Kind, Style: n.Style, Tag: n.Tag, Line: n.Line, Column: n.Column}
}

// StringScalar returns the text of n if it is a string scalar.
func StringScalar(n *yaml.Node) (string, bool) {
	n = Deref(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return "", false
	}
	if yamlnode.CheckTag(n) != nil {
		return "", false
	}
	return n.Value, true
}

// BoolScalar gives the value of n when it is a YAML bool.
func BoolScalar(n *yaml.Node) (bool, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return false, false
	}
	v, _ := yamlnode.Scalar(n)
	b, ok := v.(bool)
	return b, ok
}

// ForSyntax is the form of $for: "x in EXPR" or "a, b in EXPR" (the
// names, then " in "); $for compiles it and check reads it.
var ForSyntax = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:,\s*([A-Za-z_][A-Za-z0-9_]*)\s*)?\s+in\s`)

// rootDirective is the first document directive of the table ($overlay,
// then $transform) that mapping n, a document's root, holds, or nil.
func (t *Table) rootDirective(n *yaml.Node) *Directive {
	for i := range t.dirs {
		d := &t.dirs[i]
		if d.Kind != KindOverlay || d.Overlay == nil {
			continue
		}
		for j := 0; j+1 < len(n.Content); j += 2 {
			if k := Deref(n.Content[j]); k.Kind == yaml.ScalarNode && k.Value == d.Name {
				return d
			}
		}
	}
	return nil
}
