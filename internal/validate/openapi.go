package validate

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// This file reads OpenAPI v3 documents as the API server serves them under
// /openapi/v3/ (for instance `kubectl get --raw /openapi/v3/apis/apps/v1`):
// every schema of components.schemas that carries
// x-kubernetes-group-version-kind becomes the schema of those kinds, with
// its $refs to other component schemas written in place.

const componentsPrefix = "#/components/schemas/"

// isOpenAPIDocument reports whether a schema document is an OpenAPI v3
// document rather than a Kubernetes object.
func isOpenAPIDocument(doc map[string]any) bool {
	_, ok := doc["openapi"].(string)
	return ok
}

// addOpenAPI reads the kinds of one OpenAPI v3 document.
func (s *Schemas) addOpenAPI(doc map[string]any) error {
	components, _ := doc["components"].(map[string]any)
	schemas, _ := components["schemas"].(map[string]any)
	names := make([]string, 0, len(schemas))
	for name := range schemas {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		sch, _ := schemas[name].(map[string]any)
		gvks, _ := sch["x-kubernetes-group-version-kind"].([]any)
		if len(gvks) == 0 {
			continue
		}
		in, err := inlineRefs(sch, schemas, nil)
		if err != nil {
			return fmt.Errorf("components.schemas[%s]: %w", name, err)
		}
		inlined, _ := in.(map[string]any) // sch is a map, and so is what inlineRefs makes of it
		for _, g := range gvks {
			gm, _ := g.(map[string]any)
			group, _ := gm["group"].(string)
			version, _ := gm["version"].(string)
			kind, _ := gm["kind"].(string)
			gvk := schema.GroupVersionKind{Group: group, Version: version, Kind: kind}
			ks, err := openAPIKindSchema(gvk, inlined)
			if err != nil {
				return fmt.Errorf("components.schemas[%s]: %w", name, err)
			}
			s.groups[group] = true
			s.kinds[gvk] = ks
		}
	}
	return nil
}

// inlineRefs writes every {"$ref": "#/components/schemas/X"} in place, and
// an allOf of one schema (how /openapi/v3 wraps a $ref that has siblings
// such as description or default) as that schema. stack holds the schemas
// being inlined, to refuse a recursive schema.
func inlineRefs(v any, schemas map[string]any, stack []string) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		if ref, ok := t["$ref"].(string); ok {
			name := strings.TrimPrefix(ref, componentsPrefix)
			target, found := schemas[name]
			if !found || name == ref {
				return nil, fmt.Errorf("$ref %s: no such schema in components.schemas", ref)
			}
			for _, n := range stack {
				if n == name {
					return nil, fmt.Errorf("$ref %s: recursive schemas are not supported", ref)
				}
			}
			return inlineRefs(target, schemas, append(stack, name))
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			if k == "x-kubernetes-group-version-kind" || k == "description" {
				continue
			}
			in, err := inlineRefs(e, schemas, stack)
			if err != nil {
				return nil, err
			}
			out[k] = in
		}
		if out["format"] == "int-or-string" {
			// How /openapi/v3 writes IntOrString; CRDs say it this way.
			delete(out, "format")
			delete(out, "type")
			out["x-kubernetes-int-or-string"] = true
		}
		if all, ok := out["allOf"].([]any); ok && len(all) == 1 {
			only, _ := all[0].(map[string]any)
			delete(out, "allOf")
			for k, e := range only {
				if _, set := out[k]; !set {
					out[k] = e
				}
			}
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			in, err := inlineRefs(e, schemas, stack)
			if err != nil {
				return nil, err
			}
			out[i] = in
		}
		return out, nil
	}
	return v, nil
}

// openAPIKindSchema builds the validators of a built-in kind from its
// inlined OpenAPI schema, the same way as for a CRD's version.
func openAPIKindSchema(gvk schema.GroupVersionKind, sch map[string]any) (*kindSchema, error) {
	raw, err := json.Marshal(sch)
	if err != nil {
		return nil, err
	}
	var props apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(raw, &props); err != nil {
		return nil, err
	}
	internal := &apiextensionsinternal.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&props, internal, nil); err != nil {
		return nil, err
	}
	st, err := structuralschema.NewStructural(internal)
	if err != nil {
		return nil, fmt.Errorf("schema is not structural: %w", err)
	}
	ks := &kindSchema{gvk: gvk, namespaced: true, structural: st}
	if ks.openapi, _, err = apiservervalidation.NewSchemaValidator(internal); err != nil {
		return nil, err
	}
	ks.cel = cel.NewValidator(st, true, celconfig.PerCallLimit)
	return ks, nil
}
