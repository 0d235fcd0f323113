package validate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	celconfig "k8s.io/apiserver/pkg/apis/cel"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// ErrUnknownSchemas is returned by Load when a schema document holds a value
// not known yet: nothing can be checked until it is.
var ErrUnknownSchemas = errors.New("schemas are not known yet")

// Schemas is a set of kinds with their schemas. Load only reads which
// group, kind and versions each schema document defines; the validators of
// a version are built the first time a document of it is checked, once, so
// that a call pays only for the kinds it checks. A Schemas is safe for
// concurrent use.
type Schemas struct {
	kinds   map[schema.GroupKind]map[string]*kindEntry // by group and kind, then version
	loading int                                        // the index of the document Load is reading
	skipped int                                        // documents that are neither CRDs nor OpenAPI documents (add)
	// complete holds the group-versions an OpenAPI document served for
	// them defines wholly (kinds.go).
	complete map[schema.GroupVersion]bool
	// crdGroups holds the groups that given CRDs define kinds of: in
	// part, as far as Load knows (kinds.go).
	crdGroups map[string]bool
	builtin   *builtinSet // the built-in kinds, below the documents' (builtins.go)
}

// SchemaError is a schema document that cannot be used, found when a
// document of a kind it defines is first checked.
type SchemaError struct{ msg string }

func (e *SchemaError) Error() string { return e.msg }

// kindEntry is one served version of one kind: how to build its
// validators, and once built, them.
type kindEntry struct {
	gvk    schema.GroupVersionKind
	source string // the schema document defining it, as an error names it
	once   sync.Once
	build  func() (*kindSchema, error)
	ks     *kindSchema
	err    error
}

func (e *kindEntry) get() (*kindSchema, error) {
	e.once.Do(func() {
		e.ks, e.err = buildSafely(e.build)
		if e.err != nil {
			e.err = &SchemaError{fmt.Sprintf("%s: %s", e.source, e.err)}
		}
		e.build = nil
	})
	return e.ks, e.err
}

// buildSafely turns a panic in the Kubernetes code building a validator
// into an error: a schema never takes the provider down.
func buildSafely(build func() (*kindSchema, error)) (ks *kindSchema, err error) {
	defer func() {
		if r := recover(); r != nil {
			ks, err = nil, errors.New("the schema could not be read")
		}
	}()
	return build()
}

// kindSchema holds what the API server builds for one served version of a
// kind: its structural schema (with its defaults pruned, as the server
// prunes them), the OpenAPI validator and the CEL validator of its
// x-kubernetes-validations rules.
type kindSchema struct {
	gvk        schema.GroupVersionKind
	namespaced bool
	dropStatus bool // a create resets status (a status subresource)
	structural *structuralschema.Structural
	openapi    apiservervalidation.SchemaValidator
	cel        *cel.Validator // nil when the schema has no rules
	// fromOpenAPI: a kind of an OpenAPI document (a built-in kind, which
	// the server decodes into Go types, reading a null as absent).
	fromOpenAPI bool

	applySchema *structuralschema.Structural // the field manager's schema when not structural's (ssa.go)
	tcOnce      sync.Once                    // typeConverter (ssa.go)
	tc          managedfields.TypeConverter  // the field manager's, nil when not built
}

// Load reads schema documents: CustomResourceDefinitions
// (apiextensions.k8s.io/v1) and OpenAPI v3 documents as served under
// /openapi/v3/ (see openapi.go). A document that is null is skipped. A
// later document's kind replaces an earlier one's of the same group,
// version and kind, and any document's kind replaces the built-in one
// (builtins.go). An error names the document by its index (counted from
// 0).
//
// A CustomResourceDefinition is only indexed (indexValue): it is turned
// into the Kubernetes code's form when a document of its kind is first
// checked, so that a call pays for the CRDs it uses. The documents are
// kept: the caller must not change them afterwards.
func Load(docs []value.Value) (*Schemas, error) {
	indexed := make([]Indexed, len(docs))
	for i, d := range docs {
		if d == nil {
			continue
		}
		if holdsUnknown(d, 0) {
			return nil, ErrUnknownSchemas
		}
		skel := skeleton(d)
		if ix, ok := IndexOf(skel); ok {
			indexed[i] = Indexed{CRD: &ix, Read: func() (map[string]any, error) {
				p, _ := plain(d)
				m, _ := p.(map[string]any)
				return m, nil
			}}
			continue
		}
		if IsOtherObject(skel) {
			indexed[i] = Indexed{Other: true}
			continue
		}
		p, _ := plain(d)
		indexed[i] = Indexed{Value: p}
	}
	return LoadIndexed(indexed)
}

// holdsUnknown reports whether a value holds an unknown value anywhere.
func holdsUnknown(v value.Value, depth int) bool {
	if depth > 10000 {
		return false
	}
	switch t := v.(type) {
	case value.Unknown:
		return true
	case *value.Map:
		for i := 0; i < t.Len(); i++ {
			if _, e := t.At(i); holdsUnknown(e, depth+1) {
				return true
			}
		}
	case []value.Value:
		for _, e := range t {
			if holdsUnknown(e, depth+1) {
				return true
			}
		}
	}
	return false
}

// skeleton is what IndexOf and IsOtherObject read of a document, in the
// Kubernetes code's form, without converting the rest: apiVersion, kind,
// openapi, metadata.name, and spec's group, names.kind, scope and each
// version's name and served.
func skeleton(v value.Value) any {
	m, ok := v.(*value.Map)
	if !ok {
		return nil
	}
	out := map[string]any{}
	for _, k := range []string{"apiVersion", "kind", "openapi"} {
		if e, ok := m.Get(k); ok {
			out[k] = scalar(e)
		}
	}
	if meta, ok := getMap(m, "metadata"); ok {
		if name, ok := meta.Get("name"); ok {
			out["metadata"] = map[string]any{"name": scalar(name)}
		}
	}
	spec, ok := getMap(m, "spec")
	if !ok {
		return out
	}
	sk := map[string]any{}
	for _, k := range []string{"group", "scope"} {
		if e, ok := spec.Get(k); ok {
			sk[k] = scalar(e)
		}
	}
	if names, ok := getMap(spec, "names"); ok {
		if kind, ok := names.Get("kind"); ok {
			sk["names"] = map[string]any{"kind": scalar(kind)}
		}
	}
	if versions, ok := spec.Get("versions"); ok {
		if l, ok := versions.([]value.Value); ok {
			vs := make([]any, len(l))
			for i, e := range l {
				vm, ok := e.(*value.Map)
				if !ok {
					continue
				}
				item := map[string]any{}
				for _, k := range []string{"name", "served"} {
					if x, ok := vm.Get(k); ok {
						item[k] = scalar(x)
					}
				}
				vs[i] = item
			}
			sk["versions"] = vs
		}
	}
	out["spec"] = sk
	return out
}

func getMap(m *value.Map, k string) (*value.Map, bool) {
	e, ok := m.Get(k)
	if !ok {
		return nil, false
	}
	sub, ok := e.(*value.Map)
	return sub, ok
}

// scalar is a scalar's plain form; anything else stands as a marker that
// is neither a string nor a bool, which is all the index reads.
func scalar(v value.Value) any {
	switch t := v.(type) {
	case string, bool:
		return t
	}
	return struct{}{}
}

// LoadPlain is Load for documents already in the JSON-like form the
// Kubernetes code reads (map[string]any, []any, int64, float64, string,
// bool, nil), for instance decoded from a JSON file. The documents are
// kept, not copied: the caller must not change them afterwards.
func LoadPlain(docs []any) (*Schemas, error) {
	return loadPlain(docs, builtins())
}

// loadPlain is LoadPlain with the given built-in kinds (noBuiltins for a
// build without them).
func loadPlain(docs []any, b *builtinSet) (*Schemas, error) {
	s := newSchemas(b)
	for i, p := range docs {
		if err := s.addDocument(i, p); err != nil {
			return nil, err
		}
	}
	return s.loaded()
}

func newSchemas(b *builtinSet) *Schemas {
	return &Schemas{kinds: map[schema.GroupKind]map[string]*kindEntry{}, builtin: b,
		complete: map[schema.GroupVersion]bool{}, crdGroups: map[string]bool{}}
}

// addDocument reads document i.
func (s *Schemas) addDocument(i int, p any) error {
	if p == nil {
		return nil
	}
	m, ok := p.(map[string]any)
	if !ok {
		return fmt.Errorf("schemas: document %d is not an object", i)
	}
	s.loading = i
	add := s.add
	if isOpenAPIDocument(m) {
		add = s.addOpenAPI
	}
	if err := add(m); err != nil {
		return fmt.Errorf("schemas: document %d: %w", i, err)
	}
	return nil
}

// loaded is the end of a load: schemas that hold only other objects are
// an error.
func (s *Schemas) loaded() (*Schemas, error) {
	if s.skipped > 0 && len(s.kinds) == 0 {
		what := "the document is another Kubernetes object"
		if s.skipped > 1 {
			what = fmt.Sprintf("the %d documents are other Kubernetes objects", s.skipped)
		}
		return nil, fmt.Errorf("schemas: no CustomResourceDefinition (apiextensions.k8s.io/v1) or OpenAPI v3 document: %s", what)
	}
	return s, nil
}

// put records how to build one served version of a kind.
func (s *Schemas) put(gvk schema.GroupVersionKind, build func() (*kindSchema, error)) {
	gk := gvk.GroupKind()
	if s.kinds[gk] == nil {
		s.kinds[gk] = map[string]*kindEntry{}
	}
	s.kinds[gk][gvk.Version] = &kindEntry{gvk: gvk, source: fmt.Sprintf("schemas: document %d", s.loading), build: build}
}

// add reads one schema document: of a CustomResourceDefinition, only its
// group, kind, scope and served versions, straight from the document; the
// CRD is decoded, checked as the API server checks its create, and its
// version's validators built the first time a document of that version is
// checked (entry's get). Any other Kubernetes object is skipped, so that a
// release bundle mixing CRDs with the rest of an install (argo-cd's
// install.yaml) can be given as it is.
func (s *Schemas) add(doc map[string]any) error {
	av, _ := stringAt(doc, "apiVersion")
	kind, _ := stringAt(doc, "kind")
	if kind == "CustomResourceDefinition" && strings.HasPrefix(av, "apiextensions.k8s.io/") && av != "apiextensions.k8s.io/v1" {
		return fmt.Errorf("a CustomResourceDefinition of %s: the API server serves only apiextensions.k8s.io/v1", av)
	}
	if av != "apiextensions.k8s.io/v1" || kind != "CustomResourceDefinition" {
		if av != "" && kind != "" {
			s.skipped++
			return nil // another object of a release bundle
		}
		return fmt.Errorf("neither a Kubernetes object (apiVersion and kind) nor an OpenAPI v3 document")
	}
	ix, ok := crdIndex(doc)
	if !ok {
		// Not of the shape the index reads: decode it now for the
		// server's own error.
		if _, err := decodeCRD(doc); err != nil {
			return err
		}
		return fmt.Errorf("CustomResourceDefinition %s: spec.group, spec.names.kind and spec.versions are required", ix.name)
	}
	s.addCRD(ix, func() (map[string]any, error) { return doc, nil })
	return nil
}

// addCRD records the served versions of a CustomResourceDefinition whose
// document read gives, read (decoded and checked) the first time a
// document of one of them is checked.
func (s *Schemas) addCRD(ix crdInfo, read func() (map[string]any, error)) {
	decode := sync.OnceValues(func() (*apiextensionsv1.CustomResourceDefinition, error) {
		doc, err := read()
		if err != nil {
			return nil, err
		}
		crd, err := decodeCRD(doc)
		if err != nil {
			return nil, err
		}
		if err := validCRD(crd); err != nil {
			return nil, err
		}
		return crd, nil
	})
	s.crdGroups[ix.group] = true
	for _, v := range ix.served {
		gvk := schema.GroupVersionKind{Group: ix.group, Version: v, Kind: ix.kind}
		s.put(gvk, func() (*kindSchema, error) {
			crd, err := decode()
			if err != nil {
				return nil, err
			}
			for i := range crd.Spec.Versions {
				if cv := &crd.Spec.Versions[i]; cv.Name == v && cv.Served {
					ks, err := newKindSchema(crd, cv)
					if err != nil {
						return nil, fmt.Errorf("CustomResourceDefinition %s version %s: %w", crd.Name, v, err)
					}
					return ks, nil
				}
			}
			return nil, fmt.Errorf("CustomResourceDefinition %s does not serve version %s", crd.Name, v)
		})
	}
}

// crdInfo is what Load reads of a CustomResourceDefinition without
// decoding it.
type crdInfo struct {
	name, group, kind string
	served            []string
}

// crdIndex reads a CustomResourceDefinition's name, group, kind and served
// versions from the document as given; ok is false when they are not
// there in the shape the API server requires.
func crdIndex(doc map[string]any) (ix crdInfo, ok bool) {
	ix.name, _ = stringAt(doc, "metadata", "name")
	ix.group, _ = stringAt(doc, "spec", "group")
	ix.kind, _ = stringAt(doc, "spec", "names", "kind")
	spec, _ := doc["spec"].(map[string]any)
	versions, _ := spec["versions"].([]any)
	if ix.group == "" || ix.kind == "" || len(versions) == 0 {
		return ix, false
	}
	for _, v := range versions {
		m, _ := v.(map[string]any)
		name, _ := m["name"].(string)
		served, isBool := m["served"].(bool)
		if name == "" || !isBool {
			return ix, false
		}
		if served {
			ix.served = append(ix.served, name)
		}
	}
	return ix, true
}

// decodeCRD decodes a CustomResourceDefinition document.
func decodeCRD(doc map[string]any) (*apiextensionsv1.CustomResourceDefinition, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := json.Unmarshal(raw, &crd); err != nil {
		return nil, fmt.Errorf("CustomResourceDefinition %s: %w", crd.Name, err)
	}
	return &crd, nil
}

// validCRD checks a CustomResourceDefinition as the API server checks its
// create (after defaulting): a CRD the server would refuse, for instance one
// whose rules' estimated cost is over the limit, is refused here too.
func validCRD(crd *apiextensionsv1.CustomResourceDefinition) error {
	apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(crd)
	internal := &apiextensionsinternal.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(crd, internal, nil); err != nil {
		return fmt.Errorf("CustomResourceDefinition %s: %w", crd.Name, err)
	}
	errs := crdvalidation.ValidateCustomResourceDefinition(context.Background(), internal)
	if len(errs) == 0 {
		return nil
	}
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = e.Error()
	}
	return fmt.Errorf("CustomResourceDefinition %s is invalid: %s", crd.Name, strings.Join(lines, "; "))
}

// newKindSchema builds the validators of one served version, as the API
// server's custom resource handler does.
func newKindSchema(crd *apiextensionsv1.CustomResourceDefinition, v *apiextensionsv1.CustomResourceDefinitionVersion) (*kindSchema, error) {
	val := v.Schema
	if val == nil || val.OpenAPIV3Schema == nil {
		return nil, errors.New("no schema.openAPIV3Schema")
	}
	internal := &apiextensionsinternal.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil); err != nil {
		return nil, err
	}
	st, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("schema is not structural: %w", err)
	}
	if errs := structuralschema.ValidateStructural(nil, st); len(errs) > 0 {
		return nil, fmt.Errorf("schema is not structural: %w", errs.ToAggregate())
	}
	ks, err := buildKindSchema(internal.OpenAPIV3Schema, st)
	if err != nil {
		return nil, err
	}
	ks.gvk = schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}
	ks.namespaced = crd.Spec.Scope != apiextensionsv1.ClusterScoped
	ks.dropStatus = v.Subresources != nil && v.Subresources.Status != nil
	return ks, nil
}

// buildKindSchema builds what both kinds of schema document share: the
// structural schema with its defaults pruned (the custom resource handler
// prunes them once, on a copy), the OpenAPI validator and the CEL
// validator.
func buildKindSchema(props *apiextensionsinternal.JSONSchemaProps, st *structuralschema.Structural) (*kindSchema, error) {
	st = st.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(st); err != nil {
		return nil, err
	}
	ks := &kindSchema{structural: st}
	var err error
	if ks.openapi, _, err = apiservervalidation.NewSchemaValidator(props); err != nil {
		return nil, err
	}
	ks.cel = cel.NewValidator(st, true, celconfig.PerCallLimit)
	return ks, nil
}

// entry finds the schema of one version of a kind: the documents' first,
// then the built-in one. versions is every version either covers, nil when
// neither covers the group and kind. The error is built-in schemas that
// cannot be read.
func (s *Schemas) entry(gk schema.GroupKind, version string) (e *kindEntry, versions map[string]*kindEntry, err error) {
	given := s.kinds[gk]
	if e := given[version]; e != nil {
		return e, given, nil
	}
	builtin, err := s.builtin.versions(gk)
	if err != nil {
		return nil, nil, err
	}
	if len(builtin) == 0 {
		return nil, given, nil
	}
	versions = make(map[string]*kindEntry, len(given)+len(builtin))
	for v, e := range builtin {
		versions[v] = e
	}
	for v, e := range given {
		versions[v] = e
	}
	return versions[version], versions, nil
}

// servedIn lists the apiVersion and kind pairs of versions.
func servedIn(versions map[string]*kindEntry) []string {
	var out []string
	for _, e := range versions {
		out = append(out, e.gvk.GroupVersion().String()+" "+e.gvk.Kind)
	}
	sort.Strings(out)
	return out
}
