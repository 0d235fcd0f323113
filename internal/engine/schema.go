package engine

// $schema (LANGUAGE.md §4): a mapping from variable name to a JSON Schema
// written in YAML, checked against the variables visible where the
// directive stands.
//
// Design notes:
//   - Schemas are compiled with github.com/santhosh-tekuri/jsonschema/v6,
//     draft 2020-12 unless the schema names another draft with its own
//     "$schema" keyword. `format` is asserted (draft 2020-12 would otherwise
//     only annotate it), because the language promises that it works.
//   - A schema may only reference itself ("$ref": "#/$defs/x"). Nothing is
//     ever loaded from a file or the network.
//   - Every failure message is written here, from the error kind's fields,
//     never from the library's text: the library echoes the instance value
//     (enum, const, pattern, format, minimum, ...), and a variable's value
//     must never reach an error (it may be a secret). Messages print only
//     the schema's own text and the instance's JSON types. Object keys of
//     the variable do appear, as path segments (`config.extra: ...`).
//   - A variable whose value holds an Unknown (terraform plan) is checked
//     for what is already known: an Unknown is validated as null, and a
//     failure is dropped when the instance it is about holds an Unknown
//     (is one, for failures about kinds, keys and lengths), and so is
//     everything in a then/else branch. What remains cannot change once
//     the Unknowns are known, so it is reported at plan time; the rest is
//     checked at apply.
//   - compileSchemaSet is the expensive step; the renderer caches its result
//     per node. check is safe for concurrent use.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
)

// binding is a name and a value.
type binding struct {
	name string
	val  Value
}

// schemaSet is a compiled $schema directive.
type schemaSet struct {
	vars []schemaVar
}

// schemaVar is the schema of one variable.
type schemaVar struct {
	name   string
	sch    *jsonschema.Schema
	hasDef bool
	def    Value // the schema's top-level "default", in template order
}

const (
	// schMaxNodes caps the nodes of one variable's schema, counted after
	// aliases are expanded, so an alias bomb in a $schema fails fast. The
	// library's compile time grows with the square of the number of
	// subschemas, so the cap is kept where a compile stays well under a
	// second.
	schMaxNodes = 10_000
	// schMaxDepth caps how deep one schema may nest.
	schMaxDepth = 256
)

// schTypeNames are the JSON Schema type names, the values the shorthand
// `name: TYPE` accepts.
var schTypeNames = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// compileSchemaSet compiles the value of a $schema key.
func compileSchemaSet(n *yaml.Node) (*schemaSet, *yamlnode.Error) {
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
	set := &schemaSet{}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" || k.Value == "" {
			return nil, &yamlnode.Error{Node: k, Msg: "$schema keys must be variable names"}
		}
		if first, dup := seen[k.Value]; dup {
			return nil, &yamlnode.Error{Node: k, Msg: fmt.Sprintf("variable %q appears twice in $schema (first at line %d)", k.Value, first.Line)}
		}
		seen[k.Value] = k
		sv, err := compileSchemaVar(k.Value, len(set.vars), v)
		if err != nil {
			return nil, err
		}
		set.vars = append(set.vars, sv)
	}
	return set, nil
}

// compileSchemaVar compiles the schema of one variable.
func compileSchemaVar(name string, idx int, n *yaml.Node) (schemaVar, *yamlnode.Error) {
	sv := schemaVar{name: name}
	fail := func(node *yaml.Node, format string, args ...any) (schemaVar, *yamlnode.Error) {
		return sv, &yamlnode.Error{Node: node, Msg: fmt.Sprintf("invalid schema for %q: ", name) + fmt.Sprintf(format, args...)}
	}
	target := n
	if target.Kind == yaml.AliasNode && target.Alias != nil {
		target = target.Alias
	}

	// The shorthand `name: TYPE`, and the boolean schemas true and false.
	var doc any
	var tree Value
	ptrs := map[string]*yaml.Node{"": n}
	switch {
	case target.Kind == yaml.ScalarNode && target.ShortTag() == "!!str":
		if !slices.Contains(schTypeNames, target.Value) {
			return fail(n, "%s is not a type; expected a mapping, or one of %s", schQuoteJSON(target.Value), strings.Join(schTypeNames, ", "))
		}
		doc = map[string]any{"type": target.Value}
	case target.Kind == yaml.ScalarNode && target.ShortTag() == "!!bool":
		var b bool
		if err := target.Decode(&b); err != nil {
			return fail(n, "not a valid boolean")
		}
		doc = b
	case target.Kind == yaml.MappingNode:
		c := &schConv{ptrs: ptrs, keys: map[string]*yaml.Node{}}
		var err *yamlnode.Error
		tree, err = c.value(n, "", 0)
		if err != nil {
			return fail(err.Node, "%s", err.Msg)
		}
		if bad := schCheckRefs(tree, "", ptrs); bad != nil {
			return fail(bad.Node, "%s", bad.Msg)
		}
		if bad := schCheckKeywords(tree, "", c.keys); bad != nil {
			return fail(bad.Node, "%s", bad.Msg)
		}
		doc = schInstance(tree)
		if m, ok := tree.(*Map); ok {
			if d, ok := m.Get("default"); ok {
				sv.hasDef, sv.def = true, d
			}
		}
	default:
		return fail(n, "expected a mapping, or a type name such as string")
	}

	url := fmt.Sprintf("mem:///celyaml/schema/%d.json", idx)
	sch, err := schCompileJSON(url, doc)
	if err != nil {
		node, msg := schDescribeCompileError(err, url, ptrs)
		if node == nil {
			node = n
		}
		return fail(node, "%s", msg)
	}
	sv.sch = sch

	// A default must satisfy its own schema: the template author wrote both.
	if sv.hasDef {
		if fs := sv.validate(sv.def); len(fs) > 0 {
			node := ptrs["/default"]
			if node == nil {
				node = n
			}
			return sv, &yamlnode.Error{Node: node, Msg: fmt.Sprintf("default for %q does not match its schema: %s", name, strings.Join(fs, "; "))}
		}
	}
	return sv, nil
}

// schCompileJSON compiles doc, turning a panic in the library into an
// error: the engine never panics.
func schCompileJSON(url string, doc any) (sch *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			sch, err = nil, fmt.Errorf("the schema could not be compiled")
		}
	}()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(schRefuseLoader{})
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// schRefuseLoader keeps schemas from reading files or the network.
type schRefuseLoader struct{}

func (schRefuseLoader) Load(url string) (any, error) {
	return nil, errors.New("schemas cannot load other documents")
}

// schDescribeCompileError turns a compile error into a message and, when the
// library says where, the schema node at fault.
func schDescribeCompileError(err error, base string, ptrs map[string]*yaml.Node) (*yaml.Node, string) {
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			var leaves []*jsonschema.ValidationError
			schMetaLeaves(ve, &leaves)
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
				node := schNodeAt(ptrs, loc)
				where := ""
				if len(loc) > 0 {
					where = strings.Join(loc, ".") + ": "
				}
				return node, where + schMetaMessage(best, node)
			}
		}
	}
	var re *jsonschema.InvalidRegexError
	if errors.As(err, &re) {
		node := schNodeAt(ptrs, schFragmentTokens(re.URL))
		return node, fmt.Sprintf("pattern %s is not a valid regular expression: %v", schQuoteJSON(re.Regex), re.Err)
	}
	var le *jsonschema.LoadURLError
	if errors.As(err, &le) {
		return nil, fmt.Sprintf("$ref to %s cannot be loaded: a schema may only refer to itself, e.g. \"#/$defs/name\"", schQuoteJSON(strings.TrimPrefix(le.URL, "mem:///celyaml/schema/")))
	}
	msg := err.Error()
	msg = strings.ReplaceAll(msg, base+"#", "#")
	msg = strings.ReplaceAll(msg, base, "#")
	return nil, msg
}

// schMetaLeaves collects the failures of a metaschema validation. An anyOf
// counts as one failure: its branches are alternatives, not faults.
func schMetaLeaves(e *jsonschema.ValidationError, out *[]*jsonschema.ValidationError) {
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
		schMetaLeaves(c, out)
	}
}

// schMetaMessage words a metaschema failure. The schema is template text, so
// the offending schema value may be shown.
func schMetaMessage(e *jsonschema.ValidationError, node *yaml.Node) string {
	loc := e.InstanceLocation
	last := ""
	if len(loc) > 0 {
		last = loc[len(loc)-1]
	}
	switch k := e.ErrorKind.(type) {
	case *kind.AnyOf:
		if last == "type" && node != nil && node.Kind == yaml.ScalarNode {
			return fmt.Sprintf("unknown type %s; expected one of %s", schQuoteJSON(node.Value), strings.Join(schTypeNames, ", "))
		}
		return "is not a valid value for this keyword"
	case *kind.Type:
		msg := fmt.Sprintf("expected %s, got %s", strings.Join(k.Want, " or "), k.Got)
		if last == "required" && k.Got == "boolean" {
			// OpenAPI 2 and many schema dialects mark a property required
			// on the property itself.
			msg += "; required lists the keys an object must have, on the object: required: [name, port]"
		}
		return msg
	case *kind.Format:
		if k.Want == "regex" && k.Err != nil {
			return fmt.Sprintf("not a valid regular expression: %v", k.Err)
		}
		return fmt.Sprintf("not a valid %s", k.Want)
	case *kind.Enum:
		return "must be one of " + schQuoteJSONList(k.Want)
	}
	return schFailureMessage(e.ErrorKind)
}

// schNodeAt finds the schema node for a location, or the closest parent that
// is known.
func schNodeAt(ptrs map[string]*yaml.Node, loc []string) *yaml.Node {
	for i := len(loc); i >= 0; i-- {
		if n, ok := ptrs[schJSONPointer(loc[:i])]; ok {
			return n
		}
	}
	return nil
}

func schFragmentTokens(url string) []string {
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

func schJSONPointer(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		b.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return b.String()
}

// schConv converts a schema's YAML to a Value, recording the node at
// every JSON pointer.
type schConv struct {
	ptrs  map[string]*yaml.Node
	keys  map[string]*yaml.Node // the key node of every mapping entry
	nodes int
}

func (c *schConv) value(n *yaml.Node, ptr string, depth int) (Value, *yamlnode.Error) {
	c.nodes++
	if c.nodes > schMaxNodes {
		return nil, &yamlnode.Error{Node: n, Msg: fmt.Sprintf("the schema has more than %d nodes once aliases are expanded", schMaxNodes)}
	}
	if depth > schMaxDepth {
		return nil, &yamlnode.Error{Node: n, Msg: fmt.Sprintf("the schema nests more than %d levels deep", schMaxDepth)}
	}
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return nil, &yamlnode.Error{Node: n, Msg: "unknown alias"}
		}
		n = n.Alias
	}
	if _, ok := c.ptrs[ptr]; !ok {
		c.ptrs[ptr] = n
	}
	tag := n.ShortTag()
	switch n.Kind {
	case yaml.MappingNode:
		if tag != "!!map" {
			return nil, &yamlnode.Error{Node: n, Msg: fmt.Sprintf("unsupported tag %s", n.Tag)}
		}
		m := NewMap(len(n.Content) / 2)
		lines := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.AliasNode && k.Alias != nil {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode {
				return nil, &yamlnode.Error{Node: k, Msg: "mapping keys must be strings"}
			}
			switch k.ShortTag() {
			case "!!merge":
				return nil, &yamlnode.Error{Node: k, Msg: "merge keys (<<) are not supported"}
			case "!!str", "!!int", "!!float", "!!bool":
			default:
				return nil, &yamlnode.Error{Node: k, Msg: "mapping keys must be strings"}
			}
			if line, dup := lines[k.Value]; dup {
				return nil, &yamlnode.Error{Node: k, Msg: fmt.Sprintf("key %s appears twice (first at line %d)", schQuoteJSON(k.Value), line)}
			}
			lines[k.Value] = k.Line
			kp := ptr + "/" + schPointerToken(k.Value)
			if c.keys != nil {
				if _, seen := c.keys[kp]; !seen {
					c.keys[kp] = k
				}
			}
			val, err := c.value(v, kp, depth+1)
			if err != nil {
				return nil, err
			}
			m.Set(k.Value, val)
		}
		return m, nil
	case yaml.SequenceNode:
		if tag != "!!seq" {
			return nil, &yamlnode.Error{Node: n, Msg: fmt.Sprintf("unsupported tag %s", n.Tag)}
		}
		l := make([]Value, 0, len(n.Content))
		for i, item := range n.Content {
			val, err := c.value(item, ptr+"/"+strconv.Itoa(i), depth+1)
			if err != nil {
				return nil, err
			}
			l = append(l, val)
		}
		return l, nil
	case yaml.ScalarNode:
		return schScalar(n)
	}
	return nil, &yamlnode.Error{Node: n, Msg: "unsupported YAML node"}
}

// schScalar converts a scalar by its YAML 1.2 core tag.
func schScalar(n *yaml.Node) (Value, *yamlnode.Error) {
	switch tag := n.ShortTag(); tag {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, &yamlnode.Error{Node: n, Msg: "not a valid boolean"}
		}
		return b, nil
	case "!!int":
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, &yamlnode.Error{Node: n, Msg: "not a valid integer"}
		}
		switch x := v.(type) {
		case int:
			return int64(x), nil
		case int64:
			return x, nil
		case uint64:
			return float64(x), nil
		case float64:
			return x, nil
		}
		return nil, &yamlnode.Error{Node: n, Msg: "not a valid integer"}
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, &yamlnode.Error{Node: n, Msg: "not a valid number"}
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, &yamlnode.Error{Node: n, Msg: "numbers in a schema must be finite"}
		}
		return f, nil
	case "!!str", "!!timestamp", "!!binary":
		return n.Value, nil
	default:
		return nil, &yamlnode.Error{Node: n, Msg: fmt.Sprintf("unsupported tag %s", n.Tag)}
	}
}

// schPointerToken escapes a key for a JSON pointer (RFC 6901).
func schPointerToken(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// schCheckRefs rejects what the library would accept but the engine
// does not: references to other documents.
func schCheckRefs(v Value, ptr string, ptrs map[string]*yaml.Node) *yamlnode.Error {
	switch x := v.(type) {
	case *Map:
		for i := 0; i < x.Len(); i++ {
			k, val := x.At(i)
			kp := ptr + "/" + schPointerToken(k)
			if k == "$ref" || k == "$dynamicRef" || k == "$recursiveRef" {
				if s, ok := val.(string); ok && !strings.HasPrefix(s, "#") {
					return &yamlnode.Error{Node: ptrs[kp], Msg: fmt.Sprintf("%s %s: a schema may only refer to itself, e.g. \"#/$defs/name\"", k, schQuoteJSON(s))}
				}
			}
			if err := schCheckRefs(val, kp, ptrs); err != nil {
				return err
			}
		}
	case []Value:
		for i, item := range x {
			if err := schCheckRefs(item, ptr+"/"+strconv.Itoa(i), ptrs); err != nil {
				return err
			}
		}
	}
	return nil
}

// schKeywords are the keywords of JSON Schema drafts 4 to 2020-12, and the
// annotations OpenAPI and Kubernetes add.
var schKeywords = []string{
	"$schema", "$id", "id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor",
	"$vocabulary", "$comment", "$defs", "definitions",
	"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies",
	"prefixItems", "items", "additionalItems", "contains", "properties", "patternProperties",
	"additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
	"type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
	"maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
	"maxProperties", "minProperties", "required", "dependentRequired",
	"title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
	"format", "contentEncoding", "contentMediaType", "contentSchema",
	"example", "nullable", "discriminator", "externalDocs", "xml",
}

// Keywords whose value is a schema, a map of schemas, or a list of them.
var (
	schSubschema = []string{"not", "if", "then", "else", "items", "additionalItems", "contains",
		"additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}
	schSubschemaMap  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
	schSubschemaList = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
)

// schKeywordAliases are keywords of other schema languages and common
// shortenings, with the JSON Schema keyword they mean.
var schKeywordAliases = map[string]string{
	"min": "minimum", "max": "maximum", "minValue": "minimum", "maxValue": "maximum",
	"minLen": "minLength", "maxLen": "maxLength", "regex": "pattern",
	"additionalProperty": "additionalProperties", "patternProperty": "patternProperties",
}

// schMeantKeyword names the keyword that the unknown key k probably
// means, or "": a known alias; a typo, of one edit for keywords of up to
// five characters (so that words such as unit or info, two edits from not
// and if, stay free for annotations) and two for longer ones; or a
// shortening of four characters or more (maxProp for maxProperties).
func schMeantKeyword(k string) string {
	if s, ok := schKeywordAliases[k]; ok {
		return s
	}
	lk := strings.ToLower(k)
	best, bestD := "", 3
	for _, kw := range schKeywords {
		lkw := strings.ToLower(kw)
		if lkw == lk {
			return kw
		}
		limit := 2
		if len(kw) <= 5 {
			limit = 1
		}
		if d := hint.EditDistance(lk, lkw); d <= limit && d < bestD {
			best, bestD = kw, d
		}
	}
	if best != "" || len(k) < 4 {
		return best
	}
	return hint.WithPrefix(k, schKeywords)
}

// schCheckKeywords refuses a key of a schema that is not a keyword but is
// close to one, such as minLen for minLength. JSON Schema ignores unknown
// keywords, so a misspelt one would silently check nothing. A key that is
// close to no keyword stays allowed, as an annotation or extension.
// Property names, $defs names and data (enum, const, default, examples)
// are not keywords and are never checked. keys holds the key node of every
// entry, by JSON pointer, for the error's position.
func schCheckKeywords(v Value, ptr string, keys map[string]*yaml.Node) *yamlnode.Error {
	m, ok := v.(*Map)
	if !ok {
		return nil
	}
	for i := 0; i < m.Len(); i++ {
		k, val := m.At(i)
		kp := ptr + "/" + schPointerToken(k)
		if !slices.Contains(schKeywords, k) && !strings.HasPrefix(k, "x-") {
			if s := schMeantKeyword(k); s != "" {
				return &yamlnode.Error{Node: keys[kp], Msg: fmt.Sprintf("unknown keyword %s; did you mean %s? (JSON Schema ignores unknown keywords, so a misspelt one would check nothing; for a note of your own, use description, $comment or an x- key)", schQuoteJSON(k), schQuoteJSON(s))}
			}
			continue
		}
		if slices.Contains(schSubschema, k) {
			if err := schCheckKeywords(val, kp, keys); err != nil {
				return err
			}
		}
		if slices.Contains(schSubschemaMap, k) {
			if sub, ok := val.(*Map); ok {
				for j := 0; j < sub.Len(); j++ {
					name, s := sub.At(j)
					if err := schCheckKeywords(s, kp+"/"+schPointerToken(name), keys); err != nil {
						return err
					}
				}
			}
		}
		if slices.Contains(schSubschemaList, k) {
			if list, ok := val.([]Value); ok {
				for j, s := range list {
					if err := schCheckKeywords(s, kp+"/"+strconv.Itoa(j), keys); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// check validates the visible variables. It returns the defaults to bind
// for absent variables, and every failure with its path.
func (s *schemaSet) check(lookup func(name string) (Value, bool)) (defaults []binding, failures []string) {
	if s == nil {
		return nil, nil
	}
	var all []schFailure
	for i := range s.vars {
		sv := &s.vars[i]
		v, ok := lookup(sv.name)
		if !ok {
			if sv.hasDef {
				defaults = append(defaults, binding{name: sv.name, val: schCopyValue(sv.def)})
			} else {
				all = append(all, schFailure{name: sv.name, msg: "required variable is missing"})
			}
			continue
		}
		all = append(all, sv.failures(v)...)
	}
	return defaults, schFormatFailures(all)
}

// schFailure is one failure, with the instance path that sorts it.
type schFailure struct {
	name string // the variable
	path []schPathSeg
	msg  string
}

type schPathSeg struct {
	key   string
	index int // -1 for a key
}

// validate checks one value and formats its failures.
func (sv *schemaVar) validate(v Value) []string {
	return schFormatFailures(sv.failures(v))
}

// failures checks one value. Of a value that holds an Unknown, only what
// is already known is checked (see the top of this file).
func (sv *schemaVar) failures(v Value) []schFailure {
	var unknown Value // v when it holds an Unknown: failures about one are dropped
	if schHasUnknown(v) {
		unknown = v
	}
	var fs []schFailure
	if nan := schFindNaN(v, nil); nan != nil {
		fs = append(fs, schFailure{path: nan, msg: "NaN is not a JSON number and cannot be checked"})
	} else {
		inst := schInstance(v)
		err := schValidateSafely(sv.sch, inst)
		var ve *jsonschema.ValidationError
		switch {
		case err == nil:
		case errors.As(err, &ve):
			schCollectFailures(ve, inst, unknown, &fs)
		default:
			fs = append(fs, schFailure{msg: "could not be checked against its schema"})
		}
	}
	for i := range fs {
		fs[i].name = sv.name
	}
	return fs
}

// schFormatFailures sorts failures by variable, path and message, drops
// duplicates and formats them as "PATH: MESSAGE".
func schFormatFailures(fs []schFailure) []string {
	if len(fs) == 0 {
		return nil
	}
	slices.SortFunc(fs, schCompareFailures)
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		line := schFormatPath(f.name, f.path) + ": " + f.msg
		if len(out) > 0 && out[len(out)-1] == line {
			continue
		}
		out = append(out, line)
	}
	return out
}

func schValidateSafely(sch *jsonschema.Schema, inst any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("validation failed")
		}
	}()
	return sch.Validate(inst)
}

func schCompareFailures(a, b schFailure) int {
	if c := strings.Compare(a.name, b.name); c != 0 {
		return c
	}
	for i := 0; i < len(a.path) && i < len(b.path); i++ {
		x, y := a.path[i], b.path[i]
		if x.index >= 0 && y.index >= 0 {
			if c := x.index - y.index; c != 0 {
				return c
			}
			continue
		}
		if x.index >= 0 || y.index >= 0 {
			// Cannot happen for one instance; keep the order total.
			if x.index >= 0 {
				return -1
			}
			return 1
		}
		if c := strings.Compare(x.key, y.key); c != 0 {
			return c
		}
	}
	if c := len(a.path) - len(b.path); c != 0 {
		return c
	}
	return strings.Compare(a.msg, b.msg)
}

// schFormatPath writes `name.key[1].other`. A key that is not an identifier
// (letters, digits, _ and -) is written as ["key"].
func schFormatPath(name string, path []schPathSeg) string {
	var b strings.Builder
	b.WriteString(name)
	for _, s := range path {
		switch {
		case s.index >= 0:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		case schIsPathIdent(s.key):
			b.WriteByte('.')
			b.WriteString(s.key)
		default:
			b.WriteByte('[')
			b.WriteString(schQuoteJSON(s.key))
			b.WriteByte(']')
		}
	}
	return b.String()
}

func schIsPathIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9' && i > 0)) {
			return false
		}
	}
	return true
}

// schInstancePath turns an instance location into path segments, telling list
// indexes from keys by walking the instance.
func schInstancePath(inst any, loc []string) []schPathSeg {
	path := make([]schPathSeg, 0, len(loc))
	cur := inst
	for _, tok := range loc {
		switch x := cur.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err == nil && i >= 0 && i < len(x) {
				path = append(path, schPathSeg{index: i})
				cur = x[i]
				continue
			}
			cur = nil
		case map[string]any:
			cur = x[tok]
		default:
			cur = nil
		}
		path = append(path, schPathSeg{key: tok, index: -1})
	}
	return path
}

func schInstanceAt(inst any, loc []string) any {
	cur := inst
	for _, tok := range loc {
		switch x := cur.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			cur = x[i]
		case map[string]any:
			cur = x[tok]
		default:
			return nil
		}
	}
	return cur
}

// schCollectFailures flattens a validation error into failures. Containers
// (the root, groups, references, allOf) are walked; anyOf and oneOf are one
// failure each, since their branches are alternatives.
func schCollectFailures(e *jsonschema.ValidationError, inst any, unknown Value, out *[]schFailure) {
	if unknown != nil && schInBranch(e.SchemaURL) {
		// A then or else branch: the `if` that chose it may have read an
		// Unknown, and where it applies is not kept in the error, so
		// nothing under it is reported until the variable is known.
		return
	}
	switch e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				schCollectFailures(c, inst, unknown, out)
			}
			return
		}
	}
	if unknown != nil && schUnknownAt(unknown, e.InstanceLocation, !schShapeOnly(e.ErrorKind)) {
		return // about a value that is not known yet
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		path := schInstancePath(inst, e.InstanceLocation)
		for _, m := range k.Missing {
			*out = append(*out, schFailure{path: path, msg: "missing required property " + schQuoteJSON(m)})
		}
		return
	case *kind.AdditionalProperties:
		path := schInstancePath(inst, e.InstanceLocation)
		for _, p := range k.Properties {
			*out = append(*out, schFailure{path: schAppendKey(path, p), msg: "property is not allowed"})
		}
		return
	case *kind.PropertyNames:
		path := schInstancePath(inst, e.InstanceLocation)
		*out = append(*out, schFailure{path: schAppendKey(path, k.Property), msg: "property name does not match propertyNames"})
		return
	case *kind.Dependency:
		path := schInstancePath(inst, e.InstanceLocation)
		for _, m := range k.Missing {
			*out = append(*out, schFailure{path: path, msg: fmt.Sprintf("property %s is required when %s is present", schQuoteJSON(m), schQuoteJSON(k.Prop))})
		}
		return
	case *kind.DependentRequired:
		path := schInstancePath(inst, e.InstanceLocation)
		for _, m := range k.Missing {
			*out = append(*out, schFailure{path: path, msg: fmt.Sprintf("property %s is required when %s is present", schQuoteJSON(m), schQuoteJSON(k.Prop))})
		}
		return
	case *kind.Type:
		got := schTypeName(schInstanceAt(inst, e.InstanceLocation))
		*out = append(*out, schFailure{
			path: schInstancePath(inst, e.InstanceLocation),
			msg:  fmt.Sprintf("expected %s, got %s", strings.Join(k.Want, " or "), got),
		})
		return
	}
	*out = append(*out, schFailure{path: schInstancePath(inst, e.InstanceLocation), msg: schFailureMessage(e.ErrorKind)})
}

func schAppendKey(path []schPathSeg, key string) []schPathSeg {
	return append(slices.Clip(path), schPathSeg{key: key, index: -1})
}

// schFailureMessage words one failure. It reads only the schema's side of the
// error kind (Want, counts from the schema, indexes), never Got.
func schFailureMessage(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		return fmt.Sprintf("expected %s", strings.Join(k.Want, " or "))
	case *kind.Enum:
		return "must be one of " + schQuoteJSONList(k.Want)
	case *kind.Const:
		return "must be " + schQuoteJSON(k.Want)
	case *kind.Format:
		return "is not a valid " + k.Want
	case *kind.Pattern:
		return "does not match pattern " + schQuoteJSON(k.Want)
	case *kind.Minimum:
		return "must be at least " + schRatString(k.Want)
	case *kind.Maximum:
		return "must be at most " + schRatString(k.Want)
	case *kind.ExclusiveMinimum:
		return "must be greater than " + schRatString(k.Want)
	case *kind.ExclusiveMaximum:
		return "must be less than " + schRatString(k.Want)
	case *kind.MultipleOf:
		return "must be a multiple of " + schRatString(k.Want)
	case *kind.MinLength:
		return fmt.Sprintf("must be at least %d characters long", k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("must be at most %d characters long", k.Want)
	case *kind.MinItems:
		return fmt.Sprintf("must have at least %d %s, got %d", k.Want, schPlural(k.Want, "item"), k.Got)
	case *kind.MaxItems:
		return fmt.Sprintf("must have at most %d %s, got %d", k.Want, schPlural(k.Want, "item"), k.Got)
	case *kind.MinProperties:
		return fmt.Sprintf("must have at least %d %s, got %d", k.Want, schPlural(k.Want, "property"), k.Got)
	case *kind.MaxProperties:
		return fmt.Sprintf("must have at most %d %s, got %d", k.Want, schPlural(k.Want, "property"), k.Got)
	case *kind.AdditionalItems:
		return fmt.Sprintf("has %d more %s than allowed", k.Count, schPlural(k.Count, "item"))
	case *kind.UniqueItems:
		return fmt.Sprintf("items must be unique, but [%d] and [%d] are equal", k.Duplicates[0], k.Duplicates[1])
	case *kind.Contains:
		return "no item matches the contains schema"
	case *kind.MinContains:
		return fmt.Sprintf("must have at least %d %s matching the contains schema", k.Want, schPlural(k.Want, "item"))
	case *kind.MaxContains:
		return fmt.Sprintf("must have at most %d %s matching the contains schema", k.Want, schPlural(k.Want, "item"))
	case *kind.Not:
		return "must not match the schema in \"not\""
	case *kind.AnyOf:
		return "must match at least one schema in anyOf"
	case *kind.OneOf:
		if len(k.Subschemas) >= 2 {
			return fmt.Sprintf("must match exactly one schema in oneOf, but matches [%d] and [%d]", k.Subschemas[0], k.Subschemas[1])
		}
		return "must match exactly one schema in oneOf, but matches none"
	case *kind.AllOf:
		return "must match every schema in allOf"
	case *kind.FalseSchema:
		return "is not allowed"
	case *kind.ContentEncoding:
		return "is not valid " + k.Want + " content"
	case *kind.ContentMediaType:
		return "is not valid " + k.Want
	case *kind.ContentSchema:
		return "content does not match contentSchema"
	case *kind.RefCycle:
		return "the schema's references form a cycle"
	case *kind.InvalidJsonValue:
		return "is not a JSON value"
	case *kind.Reference, *kind.Group, *kind.Schema:
		return "does not match the schema"
	}
	if p := k.KeywordPath(); len(p) > 0 {
		return "fails " + schQuoteJSON(strings.Join(p, "/"))
	}
	return "does not match the schema"
}

func schPlural(n int, word string) string {
	if n == 1 {
		return word
	}
	if strings.HasSuffix(word, "y") {
		return word[:len(word)-1] + "ies"
	}
	return word + "s"
}

// schRatString prints a schema number: integers exactly, others as the
// shortest float64 text.
func schRatString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() && r.Num().IsInt64() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// schQuoteJSON writes v as JSON without HTML escaping.
func schQuoteJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func schQuoteJSONList(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = schQuoteJSON(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// schTypeName is the JSON type of an instance value. Integers are
// "integer", other numbers "number".
func schTypeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case int64:
		return "integer"
	case float64:
		return "number"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

// schInstance converts an engine value to what the validator reads:
// map[string]any, []any, int64, float64, string, bool, nil. An infinity
// becomes a number beyond every finite float64 (1e400), so that bounds
// compare correctly; NaN is caught by schFindNaN before.
func schInstance(v Value) any {
	switch x := v.(type) {
	case *Map:
		m := make(map[string]any, x.Len())
		for i := 0; i < x.Len(); i++ {
			k, val := x.At(i)
			m[k] = schInstance(val)
		}
		return m
	case []Value:
		l := make([]any, len(x))
		for i, item := range x {
			l[i] = schInstance(item)
		}
		return l
	case float64:
		switch {
		case math.IsInf(x, 1):
			return json.Number("1e400")
		case math.IsInf(x, -1):
			return json.Number("-1e400")
		}
		return x
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case float32:
		return schInstance(float64(x))
	case nil, bool, int64, string:
		return x
	case Unknown:
		return nil // failures about it are dropped (schUnknownAt)
	}
	// Not an engine value; let the validator call it invalid.
	return struct{}{}
}

// schFindNaN returns the path of the first NaN in v, or nil.
func schFindNaN(v Value, path []schPathSeg) []schPathSeg {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) {
			if path == nil {
				path = []schPathSeg{}
			}
			return path
		}
	case *Map:
		for i := 0; i < x.Len(); i++ {
			k, val := x.At(i)
			if p := schFindNaN(val, schAppendKey(path, k)); p != nil {
				return p
			}
		}
	case []Value:
		for i, item := range x {
			if p := schFindNaN(item, append(slices.Clip(path), schPathSeg{index: i})); p != nil {
				return p
			}
		}
	}
	return nil
}

// schInBranch reports whether a schema location lies in a then or else
// branch. A property named "then" or "else" counts too, which only makes
// the check more careful.
func schInBranch(url string) bool {
	_, frag, _ := strings.Cut(url, "#")
	for seg := range strings.SplitSeq(frag, "/") {
		if seg == "then" || seg == "else" {
			return true
		}
	}
	return false
}

// schShapeOnly reports whether a failure depends only on the kind of its
// instance, its keys or its length, and not on the values inside it:
// those are known even when values inside are not.
func schShapeOnly(k jsonschema.ErrorKind) bool {
	switch k.(type) {
	case *kind.Type, *kind.Required, *kind.AdditionalProperties, *kind.PropertyNames,
		*kind.Dependency, *kind.DependentRequired, *kind.MinProperties, *kind.MaxProperties,
		*kind.MinItems, *kind.MaxItems, *kind.AdditionalItems:
		return true
	}
	return false
}

// schUnknownAt reports whether the part of v at an instance location is an
// Unknown or lies inside one, or, with inside set, holds one anywhere.
func schUnknownAt(v Value, loc []string, inside bool) bool {
	for _, tok := range loc {
		switch x := v.(type) {
		case *Map:
			v, _ = x.Get(tok)
		case []Value:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return false
			}
			v = x[i]
		case Unknown:
			return true
		default:
			return false
		}
	}
	if inside {
		return schHasUnknown(v)
	}
	_, unknown := v.(Unknown)
	return unknown
}

// schHasUnknown reports whether v holds an Unknown anywhere.
func schHasUnknown(v Value) bool {
	switch x := v.(type) {
	case Unknown:
		return true
	case *Map:
		for i := 0; i < x.Len(); i++ {
			if _, val := x.At(i); schHasUnknown(val) {
				return true
			}
		}
	case []Value:
		for _, item := range x {
			if schHasUnknown(item) {
				return true
			}
		}
	}
	return false
}

// schCopyValue deep-copies maps and lists, so a bound default never shares
// storage with the cached schema.
func schCopyValue(v Value) Value {
	switch x := v.(type) {
	case *Map:
		m := NewMap(x.Len())
		for i := 0; i < x.Len(); i++ {
			k, val := x.At(i)
			m.Set(k, schCopyValue(val))
		}
		return m
	case []Value:
		l := make([]Value, len(x))
		for i, item := range x {
			l[i] = schCopyValue(item)
		}
		return l
	}
	return v
}
