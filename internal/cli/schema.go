package cli

import (
	"encoding/json"

	"github.com/spf13/cobra"
)

// The JSON Schema (draft 2020-12) of CEL-YAML templates, for editors: each
// document of a template is a node; a mapping's $-keys must be directives
// (or $$-escaped data keys), each directive's value has its shape, and the
// directives that need a partner require it (dependentRequired). What JSON
// Schema cannot say (CEL syntax, which names are in scope) is left to
// `celyaml check`, and so is where the overlay directives may stand (an
// overlay's root, its lists): the schema takes them anywhere. A $-key that
// is no directive gets a message of its own (schema_typos.go): "did you
// mean" for the usual slips, as the engine words it.
// schemas/celyaml.schema.json holds the same text.

// guideURL is the language reference; each directive links to its anchor.
const guideURL = "https://github.com/celyaml/terraform-provider-celyaml/blob/main/docs/guides/language-reference.md"

// schemaID is where the repository serves the schema.
const schemaID = "https://raw.githubusercontent.com/celyaml/terraform-provider-celyaml/main/schemas/celyaml.schema.json"

type directiveDoc struct {
	name, anchor, description string
	value                     map[string]any // the schema of its value
	needs                     []string       // the directives it cannot stand without
}

var (
	anyNode     = map[string]any{"$ref": "#/$defs/node"}
	exprString  = map[string]any{"type": "string"}
	nodeMapping = map[string]any{"type": "object", "additionalProperties": anyNode}
	// variableSchema is a variable's schema in $schema; {$include: FILE}
	// takes it from a file.
	variableSchema = map[string]any{"type": []string{"object", "string", "boolean"},
		"if":   map[string]any{"type": "object", "required": []string{"$include"}},
		"then": map[string]any{"maxProperties": 1, "properties": map[string]any{"$include": includePath}}}
	includePath = map[string]any{"type": "string", "minLength": 1,
		"errorMessage": "$include in $schema takes the path of a JSON or YAML file holding the variable's schema"}
	// includeValue is a path string, or a mapping such as {$eval: …}
	// that renders to one.
	includeValue = map[string]any{"type": []string{"string", "object"}, "minLength": 1,
		"if": map[string]any{"type": "object"}, "then": map[string]any{"$ref": "#/$defs/mapping"},
		"errorMessage": "$include takes a file path string, or a mapping such as {$eval: …} that gives one"}
)

// directiveDocs are the directives, in the order of the engine's directive
// table (internal/engine/walk/directives.go).
var directiveDocs = []directiveDoc{
	{"$schema", "s4-schema", "Declares and validates variables: a mapping from variable names to JSON Schemas, type names, or {$include: FILE} for a schema kept in a JSON or YAML file.",
		map[string]any{"type": "object", "additionalProperties": variableSchema}, nil},
	{"$let", "s4-let", "Binds variables for this mapping, in order: a string entry is a bare CEL expression, any other a template.",
		nodeMapping, nil},
	{"$assert", "s4-assert", "Stops rendering with an error unless every CEL expression gives true.",
		map[string]any{"oneOf": []any{exprString, map[string]any{"type": "array", "minItems": 1, "items": exprString}}}, nil},
	{"$msg", "s4-msg", "The error message of a failing $assert, with ${{ }} segments.", exprString, []string{"$assert"}},
	{"$if", "s4-if", "Renders $then when the CEL expression is true, else $else (or nothing).",
		map[string]any{"type": []string{"string", "boolean"}}, []string{"$then"}},
	{"$then", "s4-then", "The body $if renders when its condition is true.", anyNode, []string{"$if"}},
	{"$else", "s4-else", "The body $if renders when its condition is false.", anyNode, []string{"$if"}},
	{"$for", "s4-for", "Renders $do once per element: \"x in EXPR\" or \"k, v in EXPR\".", exprString, []string{"$do"}},
	{"$do", "s4-do", "The body $for renders for each element.", anyNode, []string{"$for"}},
	{"$eval", "s3-eval", "A string whose ${{ }} CEL segments are evaluated; one segment alone keeps the value's type.", exprString, nil},
	{"$key", "s4-key", "A computed key: with $value, makes one entry.", anyNode, []string{"$value"}},
	{"$value", "s4-value", "The value of the entry whose key $key computes.", anyNode, []string{"$key"}},
	{"$include", "s4-include", "Renders another template file here: its path, a string (or an $eval mapping for a computed one).", includeValue, nil},
	{"$with", "s4-with", "Variables for the $include'd file: a mapping from names to templates.", nodeMapping, []string{"$include"}},
	{"$overlay", "s8-overlay", "Makes this document an overlay: a bare CEL expression, doc bound to each rendered document, that decides which documents the rest of the mapping is merged into.",
		map[string]any{"type": []string{"string", "boolean"}}, nil},
	{"$expects", "s8-expects", "How many documents (beside $overlay) or items (beside $match or $remove) must match: an int, or \"N+\" for at least N.",
		map[string]any{"oneOf": []any{map[string]any{"type": "integer", "minimum": 0}, map[string]any{"type": "string", "pattern": "^[0-9]+\\+$"}}}, nil},
	{"$match", "s8-match", "In an overlay's list: merges the other keys of this item into every item for which the CEL expression (item bound) is true.",
		map[string]any{"type": []string{"string", "boolean"}}, nil},
	{"$remove", "s8-remove", "In an overlay's list: removes every item for which the CEL expression (item bound) is true. At an overlay's root, true: removes the documents the overlay matches.",
		map[string]any{"type": []string{"string", "boolean"}}, nil},
	{"$append", "s8-append", "In an overlay's list: adds this template's value at the end.", anyNode, nil},
	{"$transform", "s10-transform", "Makes this document a transform: namespace (keepNamespace leaving some objects where they are), labels, selectorLabels, annotations and images applied to every document after the overlays, as kustomize does.", anyNode, nil},
	{"$chart", "s11-chart", "Makes this document a Helm chart's documents, rendered as helm template renders them: a chart folder or .tgz path, or a remote chart {repository, name, version, digest} with an exact version.",
		map[string]any{"type": []string{"string", "object"}, "minLength": 1, "properties": map[string]any{
			"repository": map[string]any{"type": "string", "description": "An HTTP chart repository (https://…) or an OCI registry path (oci://…)."},
			"name":       map[string]any{"type": "string", "description": "The chart's name in the repository."},
			"version":    map[string]any{"type": "string", "description": "The chart's exact version: no ranges, no latest."},
			"digest":     map[string]any{"type": "string", "description": "Optional: sha256:<64 hex digits>, the content the version must have."},
		}}, nil},
	{"$values", "s11-values", "The chart's values, merged over its values.yaml by Helm's rules; a key its values.yaml does not have (and its values.schema.json does not allow) is a warning in check and the editor, since Helm ignores it.", anyNode, []string{"$chart"}},
	{"$release", "s11-release", "The release: {name, namespace}; defaults: the chart's name and default.",
		map[string]any{"type": "object", "properties": map[string]any{
			"name":      map[string]any{"description": "The release name (.Release.Name); default: the chart's name."},
			"namespace": map[string]any{"description": "The release namespace (.Release.Namespace); default: default."},
		}}, []string{"$chart"}},
	{"$kubeVersion", "s11-kubeVersion", "The Kubernetes version the chart sees in .Capabilities.KubeVersion (default: the built-in schemas' minor).", anyNode, []string{"$chart"}},
	{"$apiVersions", "s11-apiVersions", "API versions added to .Capabilities.APIVersions.", anyNode, []string{"$chart"}},
	{"$includeCRDs", "s11-includeCRDs", "Puts the files of the charts' crds/ folders first (default false).", anyNode, []string{"$chart"}},
	{"$hooks", "s11-hooks", "Renders the chart's hooks (default true).", anyNode, []string{"$chart"}},
	{"$skipTests", "s11-skipTests", "Leaves the chart's test hooks out (default true).", anyNode, []string{"$chart"}},
}

// templateSchema builds the schema.
func templateSchema() map[string]any {
	props := map[string]any{}
	deps := map[string]any{}
	names := make([]string, 0, len(directiveDocs))
	for _, d := range directiveDocs {
		p := map[string]any{"description": d.description,
			"markdownDescription": d.description + " [" + d.name + "](" + guideURL + "#" + d.anchor + ")"}
		for k, v := range d.value {
			p[k] = v
		}
		props[d.name] = p
		names = append(names, d.name)
		if d.needs != nil && d.name != "$if" {
			deps[d.name] = d.needs
		}
	}
	mapping := map[string]any{
		"type":              "object",
		"properties":        props,
		"propertyNames":     keyChecks(names),
		"dependentRequired": deps,
		// $if needs $then, except beside $chart, where a false $if gives
		// no document (reference §11).
		"if":                   map[string]any{"required": []string{"$if"}, "not": map[string]any{"required": []string{"$chart"}}},
		"then":                 map[string]any{"required": []string{"$then"}},
		"additionalProperties": anyNode,
	}
	return map[string]any{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"$id":         schemaID,
		"title":       "CEL-YAML template",
		"description": "A document of a CEL-YAML template: YAML data with $-directives. See " + guideURL,
		"$ref":        "#/$defs/node",
		"$defs": map[string]any{
			"node": map[string]any{"anyOf": []any{
				map[string]any{"type": []string{"string", "number", "boolean", "null"}},
				map[string]any{"type": "array", "items": anyNode},
				map[string]any{"$ref": "#/$defs/mapping"},
			}},
			"mapping": mapping,
		},
	}
}

// schemaJSON is the schema as the command prints it and the repository
// keeps it.
func schemaJSON() []byte {
	b, err := json.MarshalIndent(templateSchema(), "", "  ")
	if err != nil {
		panic(err) // the schema is built from literals
	}
	return append(b, '\n')
}

func newSchemaCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of the directives, for editors",
		Long: `Print the JSON Schema (draft 2020-12) of CEL-YAML templates: every
directive with a description and a link to the language guide, the shape of
its value, and the partners it needs. yaml-language-server reads it through
a modeline:

  # yaml-language-server: $schema=` + schemaID,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := cmd.OutOrStdout().Write(schemaJSON())
			return err
		},
	}
}
