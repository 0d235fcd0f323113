package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
)

// metaMessage words a metaschema failure. The schema is template text, so
// the offending schema value may be shown.
func metaMessage(e *jsonschema.ValidationError, node *yaml.Node) string {
	loc := e.InstanceLocation
	last := ""
	if len(loc) > 0 {
		last = loc[len(loc)-1]
	}
	switch k := e.ErrorKind.(type) {
	case *kind.AnyOf:
		if last == "type" && node != nil && node.Kind == yaml.ScalarNode {
			return fmt.Sprintf("unknown type %s; expected one of %s", quoteJSON(node.Value), strings.Join(typeNames, ", "))
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
		return "must be one of " + quoteJSONList(k.Want)
	}
	return failureMessage(e.ErrorKind)
}

// failureMessage words one failure. It reads only the schema's side of the
// error kind (Want, counts from the schema, indexes), never Got.
func failureMessage(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		return fmt.Sprintf("expected %s", strings.Join(k.Want, " or "))
	case *kind.Enum:
		return "must be one of " + quoteJSONList(k.Want)
	case *kind.Const:
		return "must be " + quoteJSON(k.Want)
	case *kind.Format:
		return "is not a valid " + k.Want
	case *kind.Pattern:
		return "does not match pattern " + quoteJSON(k.Want)
	case *kind.Minimum:
		return "must be at least " + ratString(k.Want)
	case *kind.Maximum:
		return "must be at most " + ratString(k.Want)
	case *kind.ExclusiveMinimum:
		return "must be greater than " + ratString(k.Want)
	case *kind.ExclusiveMaximum:
		return "must be less than " + ratString(k.Want)
	case *kind.MultipleOf:
		return "must be a multiple of " + ratString(k.Want)
	case *kind.MinLength:
		return fmt.Sprintf("must be at least %d characters long", k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("must be at most %d characters long", k.Want)
	case *kind.MinItems:
		return fmt.Sprintf("must have at least %d %s, got %d", k.Want, plural(k.Want, "item"), k.Got)
	case *kind.MaxItems:
		return fmt.Sprintf("must have at most %d %s, got %d", k.Want, plural(k.Want, "item"), k.Got)
	case *kind.MinProperties:
		return fmt.Sprintf("must have at least %d %s, got %d", k.Want, plural(k.Want, "property"), k.Got)
	case *kind.MaxProperties:
		return fmt.Sprintf("must have at most %d %s, got %d", k.Want, plural(k.Want, "property"), k.Got)
	case *kind.AdditionalItems:
		return fmt.Sprintf("has %d more %s than allowed", k.Count, plural(k.Count, "item"))
	case *kind.UniqueItems:
		return fmt.Sprintf("items must be unique, but [%d] and [%d] are equal", k.Duplicates[0], k.Duplicates[1])
	case *kind.Contains:
		return "no item matches the contains schema"
	case *kind.MinContains:
		return fmt.Sprintf("must have at least %d %s matching the contains schema", k.Want, plural(k.Want, "item"))
	case *kind.MaxContains:
		return fmt.Sprintf("must have at most %d %s matching the contains schema", k.Want, plural(k.Want, "item"))
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
		return "fails " + quoteJSON(strings.Join(p, "/"))
	}
	return "does not match the schema"
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	if strings.HasSuffix(word, "y") {
		return word[:len(word)-1] + "ies"
	}
	return word + "s"
}

// ratString prints a schema number: integers exactly, others as the
// shortest float64 text.
func ratString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() && r.Num().IsInt64() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// quoteJSON writes v as JSON without HTML escaping.
func quoteJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func quoteJSONList(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = quoteJSON(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// typeName is the JSON type of an instance value. Integers are
// "integer", other numbers "number".
func typeName(v any) string {
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
