package schema

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
)

// Set is a compiled $schema directive.
type Set struct {
	vars []variable
}

// variable is the schema of one variable.
type variable struct {
	name   string
	key    *yaml.Node // the variable's entry in $schema
	node   *yaml.Node // its schema as written
	schema *jsonschema.Schema
	hasDef bool
	def    value.Value     // the schema's top-level "default", in template order
	rules  *rules          // its x-kubernetes-validations, nil without any
	names  map[string]bool // the property names the schema writes (schemaNames)
	// include is the path of `{$include: FILE}` until Resolve reads the
	// file in its place (include.go).
	include, includeKey *yaml.Node
}

const (
	// maxNodes caps the nodes of one variable's schema, counted after
	// aliases are expanded, so an alias bomb in a $schema fails fast. The
	// library's compile time grows with the square of the number of
	// subschemas, so the cap is kept where a compile stays well under a
	// second.
	maxNodes = 10_000
	// maxDepth caps how deep one schema may nest.
	maxDepth = 256
)

// typeNames are the JSON Schema type names, the values the shorthand
// `name: TYPE` accepts.
var typeNames = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// Compile compiles the value of a $schema key.
func Compile(n *yaml.Node) (*Set, *yamlnode.Error) {
	if n == nil {
		return nil, &yamlnode.Error{Msg: "$schema must be a mapping from variable name to schema"}
	}
	for n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return nil, &yamlnode.Error{Node: n, Msg: "$schema must be a mapping from variable name to schema, e.g. `env: string` or `replicas: {type: integer}`"}
	}
	set := &Set{}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" || k.Value == "" {
			return nil, &yamlnode.Error{Node: k, Msg: "$schema keys must be variable names"}
		}
		if k.Value == IncludeKey {
			return nil, &yamlnode.Error{Node: k, Msg: misplacedIncludeMsg}
		}
		if first, dup := seen[k.Value]; dup {
			return nil, &yamlnode.Error{Node: k, Msg: fmt.Sprintf("variable %q appears twice in $schema (first at line %d)", k.Value, first.Line)}
		}
		seen[k.Value] = k
		if ik, p, ok, err := includeEntry(k.Value, v); err != nil || ok {
			if err != nil {
				return nil, err
			}
			set.vars = append(set.vars, variable{name: k.Value, key: k, node: v, include: p, includeKey: ik})
			continue
		}
		if bad := misplacedInclude(v, map[*yaml.Node]bool{}); bad != nil {
			return nil, &yamlnode.Error{Node: bad, Msg: misplacedIncludeMsg}
		}
		sv, err := compileVariable(k.Value, len(set.vars), v)
		sv.key, sv.node = k, v
		if err != nil {
			return nil, err
		}
		set.vars = append(set.vars, sv)
	}
	return set, nil
}

// compileVariable compiles the schema of one variable, the idx-th of its
// set.
func compileVariable(name string, idx int, n *yaml.Node) (variable, *yamlnode.Error) {
	sv := variable{name: name}
	src, err := readSource(n)
	if err != nil {
		return sv, invalid(name, err)
	}
	sv.hasDef, sv.def = src.hasDef, src.def
	sv.names = map[string]bool{}
	schemaNames(src.doc, sv.names)

	url := fmt.Sprintf("mem:///celyaml/schema/%d.json", idx)
	sch, cerr := compileJSON(url, src.doc)
	if cerr != nil {
		node, msg := describeCompileError(cerr, url, src.ptrs)
		if node == nil {
			node = n
		}
		return sv, invalid(name, &yamlnode.Error{Node: node, Msg: msg})
	}
	sv.schema = sch
	r, at, rerr := compileRules(src.doc, src.ptrs)
	if rerr != nil {
		if at == nil {
			at = n
		}
		return sv, invalid(name, &yamlnode.Error{Node: at, Msg: rerr.Error()})
	}
	sv.rules = r
	if err := sv.checkDefault(n, src.ptrs); err != nil {
		return sv, err
	}
	return sv, nil
}

// invalid prefixes an error in the schema of a variable with its name.
func invalid(name string, err *yamlnode.Error) *yamlnode.Error {
	return &yamlnode.Error{Node: err.Node, Msg: fmt.Sprintf("invalid schema for %q: ", name) + err.Msg}
}

// source is the schema of one variable as the library reads it.
type source struct {
	doc    any                   // the JSON document
	ptrs   map[string]*yaml.Node // the node at every JSON pointer
	hasDef bool
	def    value.Value // the top-level "default"
}

// readSource reads the schema of one variable: a mapping, the shorthand
// `name: TYPE`, or one of the boolean schemas true and false.
func readSource(n *yaml.Node) (source, *yamlnode.Error) {
	src := source{ptrs: map[string]*yaml.Node{"": n}}
	target := n
	if target.Kind == yaml.AliasNode && target.Alias != nil {
		target = target.Alias
	}
	switch {
	case target.Kind == yaml.ScalarNode && target.ShortTag() == "!!str":
		if !slices.Contains(typeNames, target.Value) {
			return src, &yamlnode.Error{Node: n, Msg: fmt.Sprintf("%s is not a type; expected a mapping, or one of %s", quoteJSON(target.Value), strings.Join(typeNames, ", "))}
		}
		src.doc = map[string]any{"type": target.Value}
	case target.Kind == yaml.ScalarNode && target.ShortTag() == "!!bool":
		var b bool
		if err := target.Decode(&b); err != nil {
			return src, &yamlnode.Error{Node: n, Msg: "not a valid boolean"}
		}
		src.doc = b
	case target.Kind == yaml.MappingNode:
		if err := src.readMapping(n); err != nil {
			return src, err
		}
	default:
		return src, &yamlnode.Error{Node: n, Msg: "expected a mapping, or a type name such as string"}
	}
	return src, nil
}

// readMapping reads a schema written as a mapping, refusing references to
// other documents and misspelt keywords.
func (src *source) readMapping(n *yaml.Node) *yamlnode.Error {
	c := &converter{ptrs: src.ptrs, keys: map[string]*yaml.Node{}}
	tree, err := c.value(n, "", 0)
	if err != nil {
		return err
	}
	if bad := checkRefs(tree, "", src.ptrs); bad != nil {
		return bad
	}
	if bad := checkKeywords(tree, "", c.keys); bad != nil {
		return bad
	}
	src.doc = instance(tree)
	if m, ok := tree.(*value.Map); ok {
		if d, ok := m.Get("default"); ok {
			src.hasDef, src.def = true, d
		}
	}
	return nil
}

// checkDefault refuses a default that does not satisfy its own schema:
// the template author wrote both. n is the variable's schema node, the
// position when the default's own is not known.
func (sv *variable) checkDefault(n *yaml.Node, ptrs map[string]*yaml.Node) *yamlnode.Error {
	if !sv.hasDef {
		return nil
	}
	fs := sv.validate(sv.def)
	if len(fs) == 0 {
		return nil
	}
	node := ptrs["/default"]
	if node == nil {
		node = n
	}
	return &yamlnode.Error{Node: node, Msg: fmt.Sprintf("default for %q does not match its schema: %s", sv.name, strings.Join(fs, "; "))}
}

// compileJSON compiles doc, turning a panic in the library into an
// error: the engine never panics.
func compileJSON(url string, doc any) (sch *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			sch, err = nil, fmt.Errorf("the schema could not be compiled")
		}
	}()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(refuseLoader{})
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// refuseLoader keeps schemas from reading files or the network.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, errors.New("schemas cannot load other documents")
}

// describeCompileError turns a compile error into a message and, when the
// library says where, the schema node at fault.
func describeCompileError(err error, base string, ptrs map[string]*yaml.Node) (*yaml.Node, string) {
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			var leaves []*jsonschema.ValidationError
			metaLeaves(ve, &leaves)
			if len(leaves) > 0 {
				// The most specific failure: the deepest location, then the
				// first in document order.
				best := leaves[0]
				for _, l := range leaves[1:] {
					if len(l.InstanceLocation) > len(best.InstanceLocation) {
						best = l
					}
				}
				loc := best.InstanceLocation
				node := nodeAt(ptrs, loc)
				where := ""
				if len(loc) > 0 {
					where = strings.Join(loc, ".") + ": "
				}
				return node, where + metaMessage(best, node)
			}
		}
	}
	var re *jsonschema.InvalidRegexError
	if errors.As(err, &re) {
		node := nodeAt(ptrs, fragmentTokens(re.URL))
		return node, fmt.Sprintf("pattern %s is not a valid regular expression: %v", quoteJSON(re.Regex), re.Err)
	}
	var le *jsonschema.LoadURLError
	if errors.As(err, &le) {
		return nil, fmt.Sprintf("$ref to %s cannot be loaded: a schema may only refer to itself, e.g. \"#/$defs/name\"", quoteJSON(strings.TrimPrefix(le.URL, "mem:///celyaml/schema/")))
	}
	msg := err.Error()
	msg = strings.ReplaceAll(msg, base+"#", "#")
	msg = strings.ReplaceAll(msg, base, "#")
	return nil, msg
}

// metaLeaves collects the failures of a metaschema validation. An anyOf
// counts as one failure: its branches are alternatives, not faults.
func metaLeaves(e *jsonschema.ValidationError, out *[]*jsonschema.ValidationError) {
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		*out = append(*out, e)
		return
	}
	if len(e.Causes) == 0 {
		*out = append(*out, e)
		return
	}
	for _, c := range e.Causes {
		metaLeaves(c, out)
	}
}

// nodeAt finds the schema node for a location, or the closest parent that
// is known.
func nodeAt(ptrs map[string]*yaml.Node, loc []string) *yaml.Node {
	for i := len(loc); i >= 0; i-- {
		if n, ok := ptrs[jsonPointer(loc[:i])]; ok {
			return n
		}
	}
	return nil
}

func fragmentTokens(url string) []string {
	_, frag, ok := strings.Cut(url, "#")
	if !ok || frag == "" || frag == "/" {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(frag, "/"), "/")
	for i, t := range toks {
		t = strings.ReplaceAll(t, "~1", "/")
		toks[i] = strings.ReplaceAll(t, "~0", "~")
	}
	return toks
}

func jsonPointer(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		b.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return b.String()
}

// schemaNames collects the property names a schema writes: the keys of
// properties, dependentRequired, dependencies and dependentSchemas, and the
// names listed by required and dependentRequired, anywhere in it. A
// failure's path may show a key of the variable only when it is one of
// them (reference §6): any other key is the variable's own, and may be a
// secret.
func schemaNames(doc any, names map[string]bool) {
	switch x := doc.(type) {
	case map[string]any:
		for k, v := range x {
			switch k {
			case "properties", "dependentRequired", "dependencies", "dependentSchemas":
				if m, ok := v.(map[string]any); ok {
					for name, dep := range m {
						names[name] = true
						addStrings(dep, names)
					}
				}
			case "required":
				addStrings(v, names)
			}
			schemaNames(v, names)
		}
	case []any:
		for _, v := range x {
			schemaNames(v, names)
		}
	}
}

// addStrings adds the strings of a list.
func addStrings(v any, names map[string]bool) {
	if l, ok := v.([]any); ok {
		for _, e := range l {
			if s, ok := e.(string); ok {
				names[s] = true
			}
		}
	}
}

// Variable is a variable a $schema declares, with its entry's key.
type Variable struct {
	Name string
	Key  *yaml.Node
	// Schema is the variable's schema as written: a JSON Schema, a type
	// name, or {$include: FILE}.
	Schema *yaml.Node
}

// Variables gives the variables the set declares, in template order.
func (s *Set) Variables() []Variable {
	if s == nil {
		return nil
	}
	out := make([]Variable, len(s.vars))
	for i, v := range s.vars {
		out[i] = Variable{Name: v.name, Key: v.key, Schema: v.node}
	}
	return out
}
