package schema

import (
	"fmt"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// IncludeKey is the key of a variable's schema kept in a file,
// `{$include: FILE}` (reference §4 $schema).
const IncludeKey = "$include"

// A variable's schema may be kept in a file, `name: {$include: FILE}`: a
// JSON or YAML file holding a JSON Schema, such as a chart's
// values.schema.json (reference §4 $schema). Compile keeps such a variable
// as a placeholder with the file's path; the engine reads the file, as it
// reads any included file, and Resolve compiles its schema in the
// variable's place. A $include anywhere else inside $schema is an error,
// never ignored.

// Include is a variable of a Set whose schema is in a file.
type Include struct {
	Name string
	Key  *yaml.Node // the variable's entry in $schema
	Path string     // the file, as written
	At   *yaml.Node // the path's node
	Dir  *yaml.Node // the $include key
}

// Includes lists the variables whose schema is in a file, in $schema
// order. A Set with any must be resolved before it checks.
func (s *Set) Includes() []Include {
	if s == nil {
		return nil
	}
	var out []Include
	for _, sv := range s.vars {
		if sv.include != nil {
			out = append(out, Include{Name: sv.name, Key: sv.key, Path: sv.include.Value, At: sv.include, Dir: sv.includeKey})
		}
	}
	return out
}

// Resolve gives the Set with the schema of each included variable
// compiled from docs, the root nodes of the files in Includes order. An
// error is in a file's schema; which tells which file.
func (s *Set) Resolve(docs []*yaml.Node) (out *Set, which int, err *yamlnode.Error) {
	out = &Set{vars: make([]variable, len(s.vars))}
	j := 0
	for i, sv := range s.vars {
		if sv.include == nil {
			out.vars[i] = sv
			continue
		}
		if j >= len(docs) {
			return nil, j, &yamlnode.Error{Node: sv.include, Msg: "the included schema was not read"}
		}
		doc := docs[j]
		for doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
			doc = doc.Content[0]
		}
		if doc.Kind == yaml.DocumentNode {
			return nil, j, &yamlnode.Error{Node: doc, Msg: fmt.Sprintf("invalid schema for %q: the file is empty", sv.name)}
		}
		if bad := misplacedInclude(doc, map[*yaml.Node]bool{}); bad != nil {
			return nil, j, &yamlnode.Error{Node: bad, Msg: fmt.Sprintf("invalid schema for %q: a schema file cannot include another; $include stands only as a variable's whole schema in a template's $schema", sv.name)}
		}
		cv, cerr := compileVariable(sv.name, i, doc)
		if cerr != nil {
			return nil, j, cerr
		}
		cv.key, cv.node = sv.key, sv.node
		out.vars[i] = cv
		j++
	}
	return out, -1, nil
}

// includeEntry reports whether the schema n of variable name is
// `{$include: FILE}`, and gives the path's node. A $include beside other
// keys, or with a value that is not a file path string, is an error.
func includeEntry(name string, n *yaml.Node) (key, path *yaml.Node, ok bool, err *yamlnode.Error) {
	m := n
	if m.Kind == yaml.AliasNode && m.Alias != nil {
		m = m.Alias
	}
	if m.Kind != yaml.MappingNode {
		return nil, nil, false, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Kind != yaml.ScalarNode || k.Value != IncludeKey {
			continue
		}
		if len(m.Content) != 2 {
			return nil, nil, false, &yamlnode.Error{Node: k, Msg: fmt.Sprintf("invalid schema for %q: $include takes the whole schema from a file, so it stands alone: `%s: {$include: FILE}`; write other keywords in the file", name, name)}
		}
		p := m.Content[i+1]
		if p.Kind == yaml.AliasNode && p.Alias != nil {
			p = p.Alias
		}
		if p.Kind != yaml.ScalarNode || p.ShortTag() != "!!str" || p.Value == "" {
			return nil, nil, false, &yamlnode.Error{Node: m.Content[i+1], Msg: fmt.Sprintf("invalid schema for %q: $include takes a file path string, got %s", name, nodeKind(p))}
		}
		if strings.Contains(p.Value, "${{") {
			return nil, nil, false, &yamlnode.Error{Node: m.Content[i+1], Msg: fmt.Sprintf("invalid schema for %q: $include in $schema takes a literal path; ${{ }} is not evaluated there", name)}
		}
		return k, p, true, nil
	}
	return nil, nil, false, nil
}

// misplacedInclude finds a $include key anywhere inside n, following
// aliases once.
func misplacedInclude(n *yaml.Node, seen map[*yaml.Node]bool) *yaml.Node {
	if n == nil || seen[n] {
		return nil
	}
	seen[n] = true
	if n.Kind == yaml.AliasNode {
		return misplacedInclude(n.Alias, seen)
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && c.Kind == yaml.ScalarNode && c.Value == IncludeKey {
			return c
		}
		if bad := misplacedInclude(c, seen); bad != nil {
			return bad
		}
	}
	return nil
}

// misplacedIncludeMsg is the error for a $include inside a variable's
// schema, or in place of a variable.
const misplacedIncludeMsg = "$include in $schema stands only as a variable's whole schema, e.g. `values: {$include: values.schema.json}`; here it would be ignored"

// nodeKind names the YAML kind of n for messages: its tag for a scalar.
func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!int":
			return "an int"
		case "!!float":
			return "a float"
		case "!!bool":
			return "a bool"
		case "!!null":
			return "null"
		case "!!str":
			return "an empty string"
		}
	}
	return "a " + n.ShortTag()
}
