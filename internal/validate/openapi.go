package validate

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime/schema"
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

// addOpenAPI reads which kinds one OpenAPI v3 document defines; their
// validators are built when first needed.
//
// A document served for one group-version (/openapi/v3/apis/apps/v1)
// defines the kinds its paths operate on in that group-version: its shared
// definitions (DeleteOptions, WatchEvent) name every group of the cluster,
// and a subresource (a Deployment's scale) may name another group, and
// neither is a kind of the document. A document without paths (written by
// hand) defines every kind its schemas name.
func (s *Schemas) addOpenAPI(doc map[string]any) error {
	components, _ := doc["components"].(map[string]any)
	schemas, _ := components["schemas"].(map[string]any)
	resolve := func(name string) (any, bool) {
		v, ok := schemas[name]
		return v, ok
	}
	served := pathKinds(doc) != nil
	for _, k := range openAPIKinds(doc) {
		if served {
			// A document the server serves for a group-version lists
			// every kind of it: one it does not list does not exist.
			s.complete[k.gvk.GroupVersion()] = true
		}
		s.put(k.gvk, func() (*kindSchema, error) {
			return inlinedKindSchema(k, resolve)
		})
	}
	return nil
}

// openAPIKind is one kind an OpenAPI v3 document defines: the name of its
// schema in components.schemas and what the document's paths say of it.
type openAPIKind struct {
	gvk    schema.GroupVersionKind
	schema string
	pathFacts
}

// openAPIKinds lists the kinds an OpenAPI v3 document defines (see
// addOpenAPI), in group, version and kind order.
func openAPIKinds(doc map[string]any) []openAPIKind {
	components, _ := doc["components"].(map[string]any)
	schemas, _ := components["schemas"].(map[string]any)
	byGVK := map[schema.GroupVersionKind]string{}
	names := make([]string, 0, len(schemas))
	for name := range schemas {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		sch, _ := schemas[name].(map[string]any)
		for _, gvk := range gvksOf(sch) {
			if _, dup := byGVK[gvk]; !dup {
				byGVK[gvk] = name
			}
		}
	}
	kinds := pathKinds(doc)
	if kinds == nil {
		kinds = map[schema.GroupVersionKind]*pathFacts{}
		for gvk := range byGVK {
			kinds[gvk] = &pathFacts{namespaced: true}
		}
	}
	var out []openAPIKind
	for gvk, facts := range kinds {
		name, ok := byGVK[gvk]
		if !ok {
			continue // an operation on a kind the document has no schema for
		}
		out = append(out, openAPIKind{gvk: gvk, schema: name, pathFacts: *facts})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].gvk.String() < out[j].gvk.String() })
	return out
}

// inlinedKindSchema builds the validators of one kind of an OpenAPI
// document, whose component schemas resolve finds by name.
func inlinedKindSchema(k openAPIKind, resolve func(string) (any, bool)) (*kindSchema, error) {
	root, _ := resolve(k.schema)
	in, err := inlineRefs(root, resolve, nil)
	if err != nil {
		return nil, fmt.Errorf("components.schemas[%s]: %w", k.schema, err)
	}
	inlined, _ := in.(map[string]any) // a kind's schema is a map, and so is what inlineRefs makes of it
	ks, err := openAPIKindSchema(k.gvk, inlined)
	if err != nil {
		return nil, fmt.Errorf("components.schemas[%s]: %w", k.schema, err)
	}
	ks.namespaced = k.namespaced
	ks.dropStatus = k.status
	return ks, nil
}

// pathFacts is what a document's paths say of one kind.
type pathFacts struct {
	namespaced bool // it has paths under /namespaces/{namespace}/
	status     bool // it has a status subresource, which a create resets
}

// gvksOf reads a schema's x-kubernetes-group-version-kind.
func gvksOf(sch map[string]any) []schema.GroupVersionKind {
	list, _ := sch["x-kubernetes-group-version-kind"].([]any)
	out := make([]schema.GroupVersionKind, 0, len(list))
	for _, g := range list {
		gm, _ := g.(map[string]any)
		group, _ := gm["group"].(string)
		version, _ := gm["version"].(string)
		kind, _ := gm["kind"].(string)
		if kind != "" && version != "" {
			out = append(out, schema.GroupVersionKind{Group: group, Version: version, Kind: kind})
		}
	}
	return out
}

// pathKinds lists the kinds a document's paths operate on in the
// group-version each path is served for (/api/v1/... is the core group,
// /apis/G/V/... group G), or nil when the document has no paths.
func pathKinds(doc map[string]any) map[schema.GroupVersionKind]*pathFacts {
	paths, _ := doc["paths"].(map[string]any)
	if len(paths) == 0 {
		return nil
	}
	out := map[schema.GroupVersionKind]*pathFacts{}
	for p, item := range paths {
		gv, ok := pathGroupVersion(p)
		if !ok {
			continue
		}
		ops, _ := item.(map[string]any)
		for _, op := range ops {
			om, _ := op.(map[string]any)
			g, _ := om["x-kubernetes-group-version-kind"].(map[string]any)
			gvks := gvksOf(map[string]any{"x-kubernetes-group-version-kind": []any{g}})
			if len(gvks) != 1 || gvks[0].GroupVersion() != gv {
				continue
			}
			facts := out[gvks[0]]
			if facts == nil {
				facts = &pathFacts{}
				out[gvks[0]] = facts
			}
			if strings.Contains(p, "/namespaces/{namespace}/") {
				facts.namespaced = true
			}
			if strings.HasSuffix(p, "/{name}/status") {
				facts.status = true
			}
		}
	}
	return out
}

// pathGroupVersion reads the group-version an API path is served for.
func pathGroupVersion(p string) (schema.GroupVersion, bool) {
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	switch {
	case len(parts) >= 2 && parts[0] == "api":
		return schema.GroupVersion{Version: parts[1]}, true
	case len(parts) >= 3 && parts[0] == "apis":
		return schema.GroupVersion{Group: parts[1], Version: parts[2]}, true
	}
	return schema.GroupVersion{}, false
}

// inlineRefs writes every {"$ref": "#/components/schemas/X"} of a schema in
// place, with resolve finding X, and an allOf of one schema (how
// /openapi/v3 wraps a $ref that has siblings such as description or
// default) as that schema. stack holds the schemas being inlined: where a
// schema would hold itself, it holds an object of any fields instead. It
// reads v as a schema: the keywords holding schemas are followed
// (mapSubschemas), the others (default, enum, example) are kept as they
// are, and a property named "description" stays a property.
func inlineRefs(v any, resolve func(string) (any, bool), stack []string) (any, error) {
	t, ok := v.(map[string]any)
	if !ok {
		return v, nil
	}
	if ref, ok := t["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, componentsPrefix)
		target, found := resolve(name)
		if !found || name == ref {
			return nil, fmt.Errorf("$ref %s: no such schema in components.schemas", ref)
		}
		for _, n := range stack {
			if n == name {
				// A recursive schema (a CustomResourceDefinition's
				// JSONSchemaProps holds JSONSchemaProps) is checked down to
				// where it repeats; below, any object passes.
				return map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}, nil
			}
		}
		return inlineRefs(target, resolve, append(stack, name))
	}
	out := make(map[string]any, len(t))
	for k, e := range t {
		if k == "x-kubernetes-group-version-kind" || k == "description" {
			continue
		}
		in, err := mapSubschemas(k, e, func(sub any) (any, error) { return inlineRefs(sub, resolve, stack) })
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
}

// mapSubschemas returns the value of a schema's keyword k with f applied to
// every schema it holds: a schema (items, not, additionalProperties), a
// list of them (allOf, anyOf, oneOf, and items as a tuple) or a map of them
// (properties, patternProperties, definitions). Any other keyword's value
// is returned as it is.
func mapSubschemas(k string, v any, f func(any) (any, error)) (any, error) {
	switch k {
	case "items", "not", "additionalProperties", "additionalItems":
		if l, ok := v.([]any); ok {
			return mapList(l, f)
		}
		if _, ok := v.(map[string]any); ok {
			return f(v)
		}
	case "allOf", "anyOf", "oneOf":
		if l, ok := v.([]any); ok {
			return mapList(l, f)
		}
	case "properties", "patternProperties", "definitions":
		if m, ok := v.(map[string]any); ok {
			out := make(map[string]any, len(m))
			for name, sub := range m {
				in, err := f(sub)
				if err != nil {
					return nil, err
				}
				out[name] = in
			}
			return out, nil
		}
	}
	return v, nil
}

func mapList(l []any, f func(any) (any, error)) (any, error) {
	out := make([]any, len(l))
	for i, e := range l {
		in, err := f(e)
		if err != nil {
			return nil, err
		}
		out[i] = in
	}
	return out, nil
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
	withDefaults := st.DeepCopy()
	stripDefaults(st)
	ks, err := buildKindSchema(internal, st)
	if err != nil {
		return nil, err
	}
	ks.gvk = gvk
	ks.fromOpenAPI = true
	// The field manager's type keeps the document's defaults: a list-type
	// map item may leave out a key field that has one (a Service port's
	// protocol).
	ks.applySchema = withDefaults
	return ks, nil
}

// stripDefaults removes every default of a built-in kind's schema. The API
// server defaults a built-in kind in Go, not from its OpenAPI document,
// whose defaults are mostly the Go zero value (a container's name is
// `default: ""`): filling them in would make a missing required field
// pass. With no defaults left, every null the schema does not allow is
// dropped, as Go's decoding of a built-in kind reads a null as absent.
func stripDefaults(s *structuralschema.Structural) {
	if s == nil {
		return
	}
	s.Default = structuralschema.JSON{}
	for k, p := range s.Properties {
		stripDefaults(&p)
		s.Properties[k] = p
	}
	stripDefaults(s.Items)
	if s.AdditionalProperties != nil {
		stripDefaults(s.AdditionalProperties.Structural)
	}
}
