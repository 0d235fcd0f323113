package validate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	celconfig "k8s.io/apiserver/pkg/apis/cel"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// ErrUnknownSchemas is returned by Load when a schema document holds a value
// not known yet: nothing can be checked until it is.
var ErrUnknownSchemas = errors.New("schemas are not known yet")

// Schemas is a set of kinds with their schemas, built once by Load and then
// used to check any number of documents.
type Schemas struct {
	groups map[string]bool                         // API groups some schema covers
	kinds  map[schema.GroupVersionKind]*kindSchema // every served version of every kind
}

// kindSchema holds what the API server builds for one served version of a
// custom resource: its structural schema, the OpenAPI validator and the CEL
// validator of its x-kubernetes-validations rules.
type kindSchema struct {
	gvk        schema.GroupVersionKind
	namespaced bool
	structural *structuralschema.Structural
	openapi    apiservervalidation.SchemaValidator
	cel        *cel.Validator // nil when the schema has no rules
}

// Load reads schema documents: CustomResourceDefinitions
// (apiextensions.k8s.io/v1) and OpenAPI v3 documents as served under
// /openapi/v3/ (see openapi.go). A document that is null is skipped. An error
// names the document by its index (counted from 0).
func Load(docs []value.Value) (*Schemas, error) {
	s := &Schemas{groups: map[string]bool{}, kinds: map[schema.GroupVersionKind]*kindSchema{}}
	for i, d := range docs {
		if d == nil {
			continue
		}
		p, unknown := plain(d)
		if len(unknown) > 0 {
			return nil, ErrUnknownSchemas
		}
		m, ok := p.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("schemas: document %d is not an object", i)
		}
		add := s.add
		if isOpenAPIDocument(m) {
			add = s.addOpenAPI
		}
		if err := add(m); err != nil {
			return nil, fmt.Errorf("schemas: document %d: %w", i, err)
		}
	}
	return s, nil
}

// add reads one schema document.
func (s *Schemas) add(doc map[string]any) error {
	av, _ := stringAt(doc, "apiVersion")
	kind, _ := stringAt(doc, "kind")
	if av != "apiextensions.k8s.io/v1" || kind != "CustomResourceDefinition" {
		return fmt.Errorf("apiVersion %q kind %q is neither a CustomResourceDefinition (apiextensions.k8s.io/v1) nor an OpenAPI v3 document", av, kind)
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := json.Unmarshal(raw, &crd); err != nil {
		return fmt.Errorf("CustomResourceDefinition %s: %w", crd.Name, err)
	}
	if err := validCRD(&crd); err != nil {
		return err
	}
	s.groups[crd.Spec.Group] = true
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		ks, err := newKindSchema(&crd, &v)
		if err != nil {
			return fmt.Errorf("CustomResourceDefinition %s version %s: %w", crd.Name, v.Name, err)
		}
		s.kinds[ks.gvk] = ks
	}
	return nil
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
	ks := &kindSchema{
		gvk:        schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind},
		namespaced: crd.Spec.Scope != apiextensionsv1.ClusterScoped,
	}
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
	ks.structural = st
	ks.openapi, _, err = apiservervalidation.NewSchemaValidator(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	ks.cel = cel.NewValidator(st, true, celconfig.PerCallLimit)
	return ks, nil
}
