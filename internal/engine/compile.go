package engine

import (
	"math"
	"regexp"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/lex"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// A template is compiled once into a tree of tnodes. Plain data becomes
// constant values, shared by every render; mappings with directives become
// mapNodes whose directives are checked up front, so a misspelt directive or
// a missing partner is reported even in a branch that is not taken.

// tnode is a compiled template node: *constNode, *seqNode or *mapNode.
type tnode interface{}

// constNode is plain data: no directive anywhere below it.
type constNode struct {
	n     *yaml.Node // where it is written, for limit errors
	path  string
	v     Value
	nodes int // output nodes it holds, saturating
	bytes int // rough size of its text, saturating
}

// seqNode is a sequence with directives in some of its items.
type seqNode struct {
	n     *yaml.Node
	path  string
	elems []tnode
}

// exprRef is one CEL expression in the template.
type exprRef struct {
	text  string     // the expression
	shown string     // the template text shown with a caret in errors
	off   int        // offset of text within shown
	node  *yaml.Node // where it is written
	path  string     // directive path
	// bare names the directive that takes the expression as a whole string
	// ("$if", "$let", ...), for hints about the mistakes made there: "" for
	// a ${{ }} segment.
	bare string
	// fast is set when the expression is only a variable or a chain of
	// field selections (`v`, `svc.name`): it is then read directly from
	// the scope, without running a CEL program.
	fast []string
	// eq is set when the expression compares such a chain with a string
	// literal (`doc.kind == 'Deployment'`), the usual condition of an
	// overlay and a list edit: a string found there is compared directly.
	eq *eqFast
}

// eqFast is `PATH == 'LITERAL'`.
type eqFast struct {
	path []string
	lit  string
}

// eqForm matches `a.b == 'text'` or `a.b == "text"`, the literal without
// escapes.
var eqForm = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*==\s*(?:'([^'\\\n]*)'|"([^"\\\n]*)")\s*$`)

// eqPath gives the eqFast form of text, or nil.
func eqPath(text string) *eqFast {
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
	return &eqFast{path: path, lit: m[2] + m[3]}
}

// newExprRef prepares an expression.
func newExprRef(x exprRef) *exprRef {
	x.fast = identPath(x.text)
	x.eq = eqPath(x.text)
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

// compileError is an error found while compiling; it gets its file and
// include chain when a render reaches the file.
type compileError struct {
	node         *yaml.Node
	line, column int // used when node is nil
	path, msg    string
	expr         string
	offset       int
}

type compiler struct {
	aliases map[aliasKey]tnode
	active  map[*yaml.Node]bool
	// patch is set while compiling an overlay's patch, where a sequence
	// of list edits edits the document (reference §8).
	patch bool
	edits int // edit lists compiled so far
}

// aliasKey is an anchored node as compiled in one context: in an overlay's
// patch, the same node may compile to a list edit.
type aliasKey struct {
	n     *yaml.Node
	patch bool
}

func newCompiler() *compiler {
	return &compiler{aliases: map[aliasKey]tnode{}, active: map[*yaml.Node]bool{}}
}

func cerr(n *yaml.Node, path, msg string) *compileError {
	return &compileError{node: n, path: path, msg: msg, offset: -1}
}

func fromNodeError(e *yamlnode.Error, path string) *compileError {
	return &compileError{node: e.Node, path: path, msg: e.Msg, offset: -1}
}

func (c *compiler) document(doc *yaml.Node) (tnode, *compileError) {
	if doc.Kind != yaml.DocumentNode {
		return c.node(doc, "")
	}
	if len(doc.Content) == 0 {
		return &constNode{n: doc, v: nil, nodes: 1}, nil
	}
	if root := deref(doc.Content[0]); isOverlayRoot(root) {
		keys, err := readKeys(root, "", atOverlayRoot)
		if err != nil {
			return nil, err
		}
		d, _ := lookupDirective("$overlay")
		return d.overlay(c, root, keys)
	}
	if root := deref(doc.Content[0]); isTransformRoot(root) {
		keys, err := readKeys(root, "", atTransformRoot)
		if err != nil {
			return nil, err
		}
		d, _ := lookupDirective("$transform")
		return d.overlay(c, root, keys)
	}
	return c.node(doc.Content[0], "")
}

func joinPath(path, key string) string {
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

// deref follows an alias.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func (c *compiler) node(n *yaml.Node, path string) (tnode, *compileError) {
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, cerr(n, path, "alias to an unknown anchor")
		}
		if t, ok := c.aliases[aliasKey{n.Alias, c.patch}]; ok {
			return t, nil
		}
		if c.active[n.Alias] {
			return nil, cerr(n, path, "alias *"+n.Value+" refers to a node that contains it")
		}
		c.active[n.Alias] = true
		t, err := c.node(n.Alias, path)
		delete(c.active, n.Alias)
		if err != nil {
			return nil, err
		}
		c.aliases[aliasKey{n.Alias, c.patch}] = t
		return t, nil
	case yaml.ScalarNode:
		v, err := yamlnode.Scalar(n)
		if err != nil {
			return nil, fromNodeError(err, path)
		}
		b := 8
		if s, ok := v.(string); ok {
			b = len(s)
		}
		return &constNode{n: n, path: path, v: v, nodes: 1, bytes: b}, nil
	case yaml.SequenceNode:
		return c.sequence(n, path)
	case yaml.MappingNode:
		return c.mapping(n, path)
	case yaml.DocumentNode:
		return c.document(n)
	}
	return nil, cerr(n, path, "unsupported YAML node")
}

func (c *compiler) sequence(n *yaml.Node, path string) (tnode, *compileError) {
	if c.patch {
		if t, err := c.editList(n, path); t != nil || err != nil {
			return t, err
		}
		// A sequence that is not an edit list replaces the document's:
		// its items are plain templates.
		c.patch = false
		defer func() { c.patch = true }()
	}
	elems := make([]tnode, len(n.Content))
	consts := make([]*constNode, 0, len(n.Content))
	for i, e := range n.Content {
		t, err := c.node(e, path+"["+itoa(i)+"]")
		if err != nil {
			return nil, err
		}
		elems[i] = t
		if k, ok := t.(*constNode); ok {
			consts = append(consts, k)
		}
	}
	if len(consts) < len(elems) {
		return &seqNode{n: n, path: path, elems: elems}, nil
	}
	out := make([]Value, len(consts))
	cn := &constNode{n: n, path: path, nodes: 1, bytes: 2}
	for i, k := range consts {
		out[i] = k.v
		cn.nodes = addSat(cn.nodes, k.nodes)
		cn.bytes = addSat(cn.bytes, k.bytes+3)
	}
	cn.v = out
	return cn, nil
}

// suggest returns the directive closest to an unknown $-key, if any is
// close enough to be a likely typo.
func suggest(k string) string {
	return hint.Nearest(k, directiveNames, 3, true)
}

// stringScalar returns the text of n if it is a string scalar.
func stringScalar(n *yaml.Node) (string, bool) {
	n = deref(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return "", false
	}
	if yamlnode.CheckTag(n) != nil {
		return "", false
	}
	return n.Value, true
}
