package engine

import (
	"math"
	"strings"

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
}

// newExprRef prepares an expression.
func newExprRef(x exprRef) *exprRef {
	x.fast = identPath(x.text)
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
		if !isIdent(p) {
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
	aliases map[*yaml.Node]tnode
	active  map[*yaml.Node]bool
}

func newCompiler() *compiler {
	return &compiler{aliases: map[*yaml.Node]tnode{}, active: map[*yaml.Node]bool{}}
}

func cerr(n *yaml.Node, path, msg string) *compileError {
	return &compileError{node: n, path: path, msg: msg, offset: -1}
}

func fromNodeError(e *nodeError, path string) *compileError {
	return &compileError{node: e.node, path: path, msg: e.msg, offset: -1}
}

func (c *compiler) document(doc *yaml.Node) (tnode, *compileError) {
	if doc.Kind != yaml.DocumentNode {
		return c.node(doc, "")
	}
	if len(doc.Content) == 0 {
		return &constNode{n: doc, v: nil, nodes: 1}, nil
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
		if t, ok := c.aliases[n.Alias]; ok {
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
		c.aliases[n.Alias] = t
		return t, nil
	case yaml.ScalarNode:
		v, err := scalarValue(n)
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
	elems := make([]tnode, len(n.Content))
	allConst := true
	for i, e := range n.Content {
		t, err := c.node(e, path+"["+itoa(i)+"]")
		if err != nil {
			return nil, err
		}
		elems[i] = t
		if _, ok := t.(*constNode); !ok {
			allConst = false
		}
	}
	if !allConst {
		return &seqNode{n: n, path: path, elems: elems}, nil
	}
	out := make([]Value, len(elems))
	cn := &constNode{n: n, path: path, nodes: 1, bytes: 2}
	for i, t := range elems {
		k := t.(*constNode)
		out[i] = k.v
		cn.nodes = addSat(cn.nodes, k.nodes)
		cn.bytes = addSat(cn.bytes, k.bytes+3)
	}
	cn.v = out
	return cn, nil
}

// directive names, and the producers among them.
var directives = []string{"$schema", "$let", "$assert", "$msg", "$if", "$then", "$else", "$for", "$do", "$eval", "$key", "$value", "$include", "$with"}

func isDirective(k string) bool {
	for _, d := range directives {
		if d == k {
			return true
		}
	}
	return false
}

// suggest returns the directive closest to an unknown $-key, if any is
// close enough to be a likely typo.
func suggest(k string) string {
	return nearest(k, directives, 3, true)
}

// nearest returns the candidate a misspelt name probably meant: with fold,
// one equal to it but for case; otherwise the first at the smallest edit
// distance below limit (compared in lower case with fold). It gives ""
// when none is that close.
func nearest(name string, cands []string, limit int, fold bool) string {
	best, key := "", name
	if fold {
		key = strings.ToLower(name)
	}
	for _, c := range cands {
		ck := c
		if fold {
			if ck = strings.ToLower(c); ck == key {
				return c
			}
		}
		if d := editDistance(key, ck); d < limit {
			best, limit = c, d
		}
	}
	return best
}

// withPrefix returns the first candidate that begins with name, ignoring
// case: what a shortened name (upper, maxProp) stands for. It gives ""
// when none does.
func withPrefix(name string, cands []string) string {
	ln := strings.ToLower(name)
	for _, c := range cands {
		if strings.HasPrefix(strings.ToLower(c), ln) {
			return c
		}
	}
	return ""
}

// typoLimit is the edit distance below which a name counts as a typo of
// another: 3, or 2 for names of three characters or fewer.
func typoLimit(name string) int {
	if len(name) <= 3 {
		return 2
	}
	return 3
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// partners lists, for each partner directive, the directive it needs.
var partners = [][2]string{
	{"$then", "$if"}, {"$else", "$if"}, {"$do", "$for"}, {"$value", "$key"},
	{"$with", "$include"}, {"$msg", "$assert"},
	{"$if", "$then"}, {"$for", "$do"}, {"$key", "$value"},
}

// isIdent reports whether s can be a CEL variable name.
func isIdent(s string) bool {
	if s == "" || len(s) > 256 {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (i > 0 && ch >= '0' && ch <= '9') {
			continue
		}
		return false
	}
	switch s {
	case "true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function", "if",
		"import", "let", "loop", "package", "namespace", "return", "var", "void", "while":
		return false
	}
	return true
}

// stringScalar returns the text of n if it is a string scalar.
func stringScalar(n *yaml.Node) (string, bool) {
	n = deref(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return "", false
	}
	if checkTag(n) != nil {
		return "", false
	}
	return n.Value, true
}
