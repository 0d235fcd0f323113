package cli

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
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

var (
	anyNode     = map[string]any{"$ref": "#/$defs/node"}
	exprString  = map[string]any{"type": "string"}
	nodeMapping = map[string]any{"type": "object", "additionalProperties": anyNode}
	// variableSchema is a variable's schema in $schema; {$include: FILE}
	// takes it from a file.
	variableSchema = map[string]any{"type": []string{"object", "string", "boolean"},
		"if":   map[string]any{"type": "object", "required": []string{engine.SchemaIncludeKey}},
		"then": map[string]any{"maxProperties": 1, "properties": map[string]any{engine.SchemaIncludeKey: includePath}}}
	includePath = map[string]any{"type": "string", "minLength": 1,
		"errorMessage": "$include in $schema takes the path of a JSON or YAML file holding the variable's schema"}
	// includeValue is a path string, or a mapping such as {$eval: …}
	// that renders to one.
	includeValue = map[string]any{"type": []string{"string", "object"}, "minLength": 1,
		"if": map[string]any{"type": "object"}, "then": map[string]any{"$ref": "#/$defs/mapping"},
		"errorMessage": "$include takes a file path string, or a mapping such as {$eval: …} that gives one"}
)

// valueSchemas are the schemas of the shapes a directive's value takes.
var valueSchemas = map[engine.ValueShape]map[string]any{
	engine.ValueTemplate:   anyNode,
	engine.ValueCondition:  {"type": []string{"string", "boolean"}},
	engine.ValueExprString: exprString,
	engine.ValueExprList:   {"oneOf": []any{exprString, map[string]any{"type": "array", "minItems": 1, "items": exprString}}},
	engine.ValueMapping:    nodeMapping,
	engine.ValueSchemas:    {"type": "object", "additionalProperties": variableSchema},
	engine.ValueInclude:    includeValue,
	engine.ValueLoad:       {"type": []string{"string", "object"}, "minLength": 1},
	engine.ValueFields:     {"type": "object"},
	engine.ValueCount:      {"oneOf": []any{map[string]any{"type": "integer", "minimum": 0}, map[string]any{"type": "string", "pattern": "^[0-9]+\\+$"}}},
}

// templateSchema builds the schema.
func templateSchema() map[string]any {
	props := map[string]any{}
	deps := map[string]any{}
	var names []string
	ds := engine.Directives()
	// excused: a directive a document directive takes beside it, whose
	// partner it then does not need (a $chart's $if needs no $then).
	excused := map[string]string{}
	for _, d := range ds {
		for _, b := range d.Beside {
			excused[b] = d.Name
		}
	}
	var conds []map[string]any
	for _, d := range ds {
		p := map[string]any{"description": d.Summary,
			"markdownDescription": d.Summary + " [" + d.Name + "](" + guideURL + "#" + d.Anchor + ")"}
		for k, v := range valueSchemas[d.Value] {
			p[k] = v
		}
		props[d.Name] = p
		names = append(names, d.Name)
		switch {
		case d.Needs != "" && excused[d.Name] != "":
			conds = append(conds, map[string]any{
				"if":   map[string]any{"required": []string{d.Name}, "not": map[string]any{"required": []string{excused[d.Name]}}},
				"then": map[string]any{"required": []string{d.Needs}}})
		case d.Needs != "":
			deps[d.Name] = []string{d.Needs}
		}
	}
	mapping := map[string]any{
		"type":                 "object",
		"properties":           props,
		"propertyNames":        keyChecks(names),
		"dependentRequired":    deps,
		"additionalProperties": anyNode,
	}
	switch len(conds) {
	case 0:
	case 1:
		mapping["if"], mapping["then"] = conds[0]["if"], conds[0]["then"]
	default:
		all := make([]any, len(conds))
		for i, c := range conds {
			all[i] = c
		}
		mapping["allOf"] = all
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
