package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// checkRefs rejects what the library would accept but the engine
// does not: references to other documents.
func checkRefs(v value.Value, ptr string, ptrs map[string]*yaml.Node) *yamlnode.Error {
	switch x := v.(type) {
	case *value.Map:
		for i := 0; i < x.Len(); i++ {
			k, val := x.At(i)
			kp := ptr + "/" + pointerToken(k)
			if k == "$ref" || k == "$dynamicRef" || k == "$recursiveRef" {
				if s, ok := val.(string); ok && !strings.HasPrefix(s, "#") {
					return &yamlnode.Error{Node: ptrs[kp], Msg: fmt.Sprintf("%s %s: a schema may only refer to itself, e.g. \"#/$defs/name\"", k, quoteJSON(s))}
				}
			}
			if err := checkRefs(val, kp, ptrs); err != nil {
				return err
			}
		}
	case []value.Value:
		for i, item := range x {
			if err := checkRefs(item, ptr+"/"+strconv.Itoa(i), ptrs); err != nil {
				return err
			}
		}
	}
	return nil
}

// keywords are the keywords of JSON Schema drafts 4 to 2020-12, and the
// annotations OpenAPI and Kubernetes add.
var keywords = []string{
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
	subschema = []string{"not", "if", "then", "else", "items", "additionalItems", "contains",
		"additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}
	subschemaMap  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
	subschemaList = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
)

// keywordAliases are keywords of other schema languages and common
// shortenings, with the JSON Schema keyword they mean.
var keywordAliases = map[string]string{
	"min": "minimum", "max": "maximum", "minValue": "minimum", "maxValue": "maximum",
	"minLen": "minLength", "maxLen": "maxLength", "regex": "pattern",
	"additionalProperty": "additionalProperties", "patternProperty": "patternProperties",
}

// meantKeyword names the keyword that the unknown key k probably
// means, or "": a known alias; a typo, of one edit for keywords of up to
// five characters (so that words such as unit or info, two edits from not
// and if, stay free for annotations) and two for longer ones; or a
// shortening of four characters or more (maxProp for maxProperties).
func meantKeyword(k string) string {
	if s, ok := keywordAliases[k]; ok {
		return s
	}
	lk := strings.ToLower(k)
	best, bestD := "", 3
	for _, kw := range keywords {
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
	return hint.WithPrefix(k, keywords)
}

// checkKeywords refuses a key of a schema that is not a keyword but is
// close to one, such as minLen for minLength. JSON Schema ignores unknown
// keywords, so a misspelt one would silently check nothing. A key that is
// close to no keyword stays allowed, as an annotation or extension.
// Property names, $defs names and data (enum, const, default, examples)
// are not keywords and are never checked. keys holds the key node of every
// entry, by JSON pointer, for the error's position.
func checkKeywords(v value.Value, ptr string, keys map[string]*yaml.Node) *yamlnode.Error {
	m, ok := v.(*value.Map)
	if !ok {
		return nil
	}
	for i := 0; i < m.Len(); i++ {
		k, val := m.At(i)
		kp := ptr + "/" + pointerToken(k)
		if !slices.Contains(keywords, k) && !strings.HasPrefix(k, "x-") {
			if s := meantKeyword(k); s != "" {
				return &yamlnode.Error{Node: keys[kp], Msg: fmt.Sprintf("unknown keyword %s; did you mean %s? (JSON Schema ignores unknown keywords, so a misspelt one would check nothing; for a note of your own, use description, $comment or an x- key)", quoteJSON(k), quoteJSON(s))}
			}
			continue
		}
		if slices.Contains(subschema, k) {
			if err := checkKeywords(val, kp, keys); err != nil {
				return err
			}
		}
		if slices.Contains(subschemaMap, k) {
			if sub, ok := val.(*value.Map); ok {
				for j := 0; j < sub.Len(); j++ {
					name, s := sub.At(j)
					if err := checkKeywords(s, kp+"/"+pointerToken(name), keys); err != nil {
						return err
					}
				}
			}
		}
		if slices.Contains(subschemaList, k) {
			if list, ok := val.([]value.Value); ok {
				for j, s := range list {
					if err := checkKeywords(s, kp+"/"+strconv.Itoa(j), keys); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}
