package check

import (
	"sort"
	"strings"

	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/schema"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"go.yaml.in/yaml/v3"
)

// Types from $schema (reference §4 $schema): the type a variable's JSON
// Schema gives it for checking. Only what every value the schema accepts
// has, as the engine converts it to CEL, is typed; anything else is dyn,
// which the checker never faults.

// typeNamePrefix starts the names of the object types, so that they
// cannot be read as a variable or a function.
const typeNamePrefix = "x_celyaml_schema_"

// varSchemaType gives the type of the $schema entry name: schema n.
func varSchemaType(name string, n *yaml.Node) *apiservercel.DeclType {
	n = tree.Deref(n)
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" { // the shorthand `env: string`
		n = &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: "type"}, n}}
	}
	var s any
	if n.Kind != yaml.MappingNode || n.Decode(&s) != nil {
		return apiservercel.DynType
	}
	return fileSchemaType(name, s)
}

// fileSchemaType gives the type of the variable name whose whole schema
// is s: written in the template, or read from the file its
// `{$include: FILE}` names.
func fileSchemaType(name string, s any) *apiservercel.DeclType {
	t := &schemaTyper{root: s}
	return t.schemaType(s, typeNamePrefix+name, 0)
}

// dynKeywords make a schema dyn: what it accepts is not one type, or not
// known here. ($include stands only as a variable's whole schema, which
// the caller reads: anywhere else it is an error.)
var dynKeywords = []string{"anyOf", "oneOf", "allOf", "not", "if", "$dynamicRef", "$recursiveRef", schema.IncludeKey,
	"x-kubernetes-int-or-string", "x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource",
	"nullable", "const", "patternProperties", "unevaluatedProperties", "dependentSchemas", "prefixItems"}

// schemaTyper types the schemas of one variable. root is the variable's
// whole schema, which its local $refs point into.
type schemaTyper struct {
	root   any
	refs   map[string]resolvedRef // the type of each $ref resolved, by its text
	active map[string]bool        // the $refs being resolved: one met again is a cycle
	nodes  int                    // the schemas typed, against maxTypedSchemas
	ids    int                    // 0 not looked, 1 no $id below the root, 2 some
}

// maxTypedSchemas bounds the size of one variable's type, every use of a
// $ref counted; past it, the rest is dyn.
const maxTypedSchemas = 10000

// schemaType converts one JSON Schema, found at path (the name of its
// object type): string, integer and boolean to
// string, int and bool; array to a list; object to an object type with
// its properties as fields, or to a map; a local $ref to the type of
// the schema it points at. number stays dyn: an integral number is an
// int in CEL, any other a double.
func (t *schemaTyper) schemaType(s any, path string, depth int) *apiservercel.DeclType {
	m, ok := s.(map[string]any)
	t.nodes++
	if !ok || depth > 64 || t.nodes > maxTypedSchemas {
		return apiservercel.DynType
	}
	for _, k := range dynKeywords {
		if _, has := m[k]; has {
			return apiservercel.DynType
		}
	}
	if ref, has := m["$ref"]; has {
		return t.refType(m, ref, path, depth)
	}
	typ, _ := m["type"].(string)
	switch typ {
	case "string":
		return apiservercel.StringType
	case "integer":
		return apiservercel.IntType
	case "boolean":
		return apiservercel.BoolType
	case "array":
		if items, ok := m["items"].(map[string]any); ok {
			return apiservercel.NewListType(t.schemaType(items, path+".@idx", depth+1), -1)
		}
		return apiservercel.NewListType(apiservercel.DynType, -1)
	case "object":
		props, _ := m["properties"].(map[string]any)
		addl, hasAddl := m["additionalProperties"]
		if closed, isBool := addl.(bool); len(props) > 0 && (!hasAddl || isBool && !closed) {
			fields := make(map[string]*apiservercel.DeclField, len(props))
			for name, ps := range props {
				fields[name] = apiservercel.NewDeclField(name, t.schemaType(ps, path+"."+name, depth+1), false, nil, nil)
			}
			return apiservercel.NewObjectType(path, fields)
		}
		if as, ok := addl.(map[string]any); ok && len(props) == 0 {
			return apiservercel.NewMapType(apiservercel.StringType, t.schemaType(as, path+".@elem", depth+1), -1)
		}
		return apiservercel.NewMapType(apiservercel.StringType, apiservercel.DynType, -1)
	}
	return apiservercel.DynType
}

// fieldNames gives the fields of object type t, sorted.
func fieldNames(t *apiservercel.DeclType) []string {
	names := make([]string, 0, len(t.Fields))
	for n := range t.Fields {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// pathType follows the fields path from the type of its root, or nil.
func pathType(t *apiservercel.DeclType, path []string) *apiservercel.DeclType {
	for _, f := range path {
		if t == nil || !t.IsObject() {
			return nil
		}
		fd, ok := t.Fields[f]
		if !ok {
			return nil
		}
		t = fd.Type
	}
	return t
}

// isTypeName reports whether a checker's type name is one of the object
// types of a schema.
func isTypeName(s string) bool { return strings.Contains(s, typeNamePrefix) }
