package schema

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"go.yaml.in/yaml/v3"
)

// A schema node may carry Kubernetes CEL validation rules,
// x-kubernetes-validations (reference §4 $schema). They run with the API
// server's own validator (k8s.io/apiextensions-apiserver), on the
// variable's schema read as a CRD's: self is the value at the node,
// property names are escaped, list types give their equality and
// concatenation, costs are limited. oldSelf does not exist here.

// rules is a variable's compiled x-kubernetes-validations.
type rules struct {
	st *structuralschema.Structural
	v  *cel.Validator
}

// kubernetesKeywords are the keywords that give a CEL rule its types and
// cost bounds; the rest of the JSON Schema is the library's business.
var kubernetesKeywords = map[string]bool{
	"type": true, "format": true, "properties": true, "items": true, "additionalProperties": true,
	"required": true, "nullable": true, "maxLength": true, "maxItems": true, "maxProperties": true,
	"x-kubernetes-validations": true, "x-kubernetes-list-type": true, "x-kubernetes-list-map-keys": true,
	"x-kubernetes-map-type": true, "x-kubernetes-preserve-unknown-fields": true,
	"x-kubernetes-int-or-string": true, "x-kubernetes-embedded-resource": true,
}

// hasRules reports whether a schema document holds a rule anywhere.
func hasRules(doc any) bool {
	switch t := doc.(type) {
	case map[string]any:
		for k, v := range t {
			if k == "x-kubernetes-validations" || hasRules(v) {
				return true
			}
		}
	case []any:
		for _, v := range t {
			if hasRules(v) {
				return true
			}
		}
	}
	return false
}

// project keeps the Kubernetes keywords of a schema node, recursively.
func project(doc any) any {
	m, ok := doc.(map[string]any)
	if !ok {
		return doc
	}
	out := map[string]any{}
	for k, v := range m {
		if !kubernetesKeywords[k] {
			continue
		}
		switch k {
		case "properties":
			props, _ := v.(map[string]any)
			p := make(map[string]any, len(props))
			for name, s := range props {
				p[name] = project(s)
			}
			out[k] = p
		case "items", "additionalProperties":
			if _, isSchema := v.(map[string]any); isSchema {
				out[k] = project(v)
			}
		case "type":
			if _, one := v.(string); one { // a list of types has no CEL type
				out[k] = v
			}
		default:
			out[k] = v
		}
	}
	return out
}

// compileRules compiles the rules of a variable's schema; nil when it has
// none. An error names the rule's node.
func compileRules(doc any, ptrs map[string]*yaml.Node) (*rules, *yaml.Node, error) {
	if !hasRules(doc) {
		return nil, nil, nil
	}
	raw, err := json.Marshal(project(doc))
	if err != nil {
		return nil, nil, err
	}
	var props apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(raw, &props); err != nil {
		return nil, nil, fmt.Errorf("x-kubernetes-validations needs a schema Kubernetes can read: %w", err)
	}
	internal := &apiextensionsinternal.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&props, internal, nil); err != nil {
		return nil, nil, err
	}
	st, err := structuralschema.NewStructural(internal)
	if err != nil {
		return nil, nil, fmt.Errorf("x-kubernetes-validations needs a structural schema: %w", err)
	}
	envSet := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
	if node, err := compileNode(st, "", ptrs, envSet); err != nil {
		return nil, node, err
	}
	return &rules{st: st, v: cel.NewValidator(st, false, celconfig.PerCallLimit)}, nil, nil
}

// compileNode compiles the rules at one node and below it, to report a
// rule that does not compile (or reads oldSelf) where it is written.
func compileNode(s *structuralschema.Structural, ptr string, ptrs map[string]*yaml.Node, envSet *environment.EnvSet) (*yaml.Node, error) {
	if len(s.XValidations) > 0 {
		results, err := cel.Compile(s, model.SchemaDeclType(s, false), celconfig.PerCallLimit, envSet, cel.NewExpressionsEnvLoader())
		if err != nil {
			return ptrs[ptr], err
		}
		for i, r := range results {
			at := ptrs[fmt.Sprintf("%s/x-kubernetes-validations/%d/rule", ptr, i)]
			switch {
			case r.Error != nil:
				return at, fmt.Errorf("rule does not compile: %s", r.Error.Detail)
			case r.UsesOldSelf:
				return at, fmt.Errorf("rule reads oldSelf, which does not exist here: there is no old value")
			}
		}
	}
	for name, p := range s.Properties {
		if node, err := compileNode(&p, ptr+"/properties/"+pointerToken(name), ptrs, envSet); err != nil {
			return node, err
		}
	}
	if s.Items != nil {
		if node, err := compileNode(s.Items, ptr+"/items", ptrs, envSet); err != nil {
			return node, err
		}
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		return compileNode(s.AdditionalProperties.Structural, ptr+"/additionalProperties", ptrs, envSet)
	}
	return nil, nil
}

// check runs the rules on a value that holds no Unknown and satisfies the
// rest of its schema.
func (r *rules) check(v value.Value) (fs []failure) {
	defer func() {
		if p := recover(); p != nil {
			fs = []failure{{msg: "could not be checked against its x-kubernetes-validations rules"}}
		}
	}()
	inst := instance(v)
	errs, _ := r.v.Validate(context.Background(), nil, r.st, inst, nil, celconfig.RuntimeCELCostBudget)
	fs = make([]failure, 0, len(errs))
	for _, e := range errs {
		fs = append(fs, failure{path: instancePath(inst, fieldTokens(e.Field)), msg: e.Detail})
	}
	return fs
}

// fieldTokens splits a Kubernetes field path (`a.b[1][key]`, "<nil>" for
// the root) into its keys and indexes.
func fieldTokens(p string) []string {
	if p == "<nil>" || p == "" {
		return nil
	}
	var toks []string
	for p != "" {
		switch p[0] {
		case '.':
			p = p[1:]
		case '[':
			end := strings.IndexByte(p, ']')
			if end < 0 {
				return append(toks, p[1:])
			}
			toks = append(toks, p[1:end])
			p = p[end+1:]
		default:
			end := strings.IndexAny(p, ".[")
			if end < 0 {
				end = len(p)
			}
			toks = append(toks, p[:end])
			p = p[end:]
		}
	}
	return toks
}
