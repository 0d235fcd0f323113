package chart

import (
	"bytes"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"helm.sh/helm/v4/pkg/chart/common"
	chartv2 "helm.sh/helm/v4/pkg/chart/v2"
)

// validateSchemas checks the coalesced values against the chart's
// values.schema.json and, as Helm does, each subchart's against the
// values under its name. The schema is compiled as Helm compiles it,
// except that a $ref to an http(s) or file URL is not fetched: a chart is
// rendered from its own files. The error names each failing place and
// keyword, never the value there (reference §6).
func validateSchemas(c *chartv2.Chart, vals map[string]any, hideKeys bool) error {
	var lines []string
	var walk func(c *chartv2.Chart, vals map[string]any, prefix string) error
	walk = func(c *chartv2.Chart, vals map[string]any, prefix string) error {
		if len(c.Schema) > 0 {
			msgs, err := validateSchema(c.Schema, vals, hideKeys)
			if err != nil {
				return &Error{Values: true, Msg: c.Name() + "'s values.schema.json cannot be used: " + err.Error()}
			}
			for _, m := range msgs {
				lines = append(lines, c.Name()+": "+joinLoc(prefix, m))
			}
		}
		for _, sub := range c.Dependencies() {
			raw, ok := vals[sub.Name()]
			if !ok || raw == nil {
				continue
			}
			sv, ok := raw.(map[string]any)
			if !ok {
				lines = append(lines, sub.Name()+": at "+prefix+"/"+sub.Name()+": got "+jsonKind(raw)+", want object for the subchart's values")
				continue
			}
			if err := walk(sub, sv, prefix+"/"+sub.Name()); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(c, vals, ""); err != nil {
		return err
	}
	if len(lines) == 0 {
		return nil
	}
	return &Error{Values: true, Msg: "the values do not meet the chart's values.schema.json: " + strings.Join(lines, "; ")}
}

func joinLoc(prefix, m string) string {
	if prefix == "" {
		return m
	}
	return strings.Replace(m, "at /", "at "+prefix+"/", 1)
}

// validateSchema gives one line per failing place of vals.
func validateSchema(schemaJSON []byte, vals map[string]any, hideKeys bool) ([]string, error) {
	s, err := CompileSchema(schemaJSON)
	if err != nil {
		return nil, err
	}
	err = s.Validate(common.Values(vals).AsMap())
	var ve *jsonschema.ValidationError
	if err == nil {
		return nil, nil
	}
	if !errors.As(err, &ve) {
		return nil, err
	}
	var out []string
	shown := func(key string) string {
		if !hideKeys || bytes.Contains(schemaJSON, []byte(strconv.Quote(key))) {
			return key
		}
		return "[…]"
	}
	leaves(ve, shown, &out)
	sort.Strings(out)
	return compact(out), nil
}

// CompileSchema compiles a values.schema.json as Helm does, with no URL
// fetched (a reference to one is an error).
func CompileSchema(schemaJSON []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(jsonschema.SchemeURLLoader{"urn": urnTrue{}})
	if err := c.AddResource("file:///values.schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("file:///values.schema.json")
}

// urnTrue is Helm's default for an unresolved urn: reference: a schema
// that allows anything.
type urnTrue struct{}

func (urnTrue) Load(string) (any, error) { return true, nil }

func compact(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// leaves describes the innermost causes of e, without values; shown
// gives how a key of the values is written (with HideKeys, a key the
// schema does not name is […], reference §6).
func leaves(e *jsonschema.ValidationError, shown func(string) string, out *[]string) {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			leaves(c, shown, out)
		}
		return
	}
	segs := make([]string, len(e.InstanceLocation))
	for i, k := range e.InstanceLocation {
		segs[i] = shown(k)
	}
	loc := "/" + strings.Join(segs, "/")
	msg := "at " + loc + ": fails " + strings.Join(e.ErrorKind.KeywordPath(), "/")
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		msg = "at " + loc + ": got " + k.Got + ", want " + strings.Join(k.Want, " or ")
	case *kind.Required:
		msg = "at " + loc + ": missing " + strings.Join(k.Missing, ", ")
	case *kind.AdditionalProperties:
		props := make([]string, len(k.Properties))
		for i, p := range k.Properties {
			props[i] = shown(p)
		}
		msg = "at " + loc + ": " + strings.Join(props, ", ") + " not allowed (additionalProperties)"
	}
	*out = append(*out, msg)
}

// jsonKind names the JSON type of a value, as the schema errors do.
func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64, int, int64:
		return "number"
	}
	return "null"
}
