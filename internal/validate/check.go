package validate

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/storage/names"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// Violation is one reason the API server would refuse a document.
type Violation struct {
	ID      string // the document's manifest ID, group/Kind/namespace/name, whole
	Path    string // the field path, as the API server writes it ("" for the document), every key named
	Message string // the API server's words, without the offending value
}

// Request is the request whose checks a document gets.
type Request int

const (
	// ServerSideApply checks a document as the API server checks a
	// server-side apply that creates it: what kubernetes_manifest,
	// kubectl apply --server-side, Flux and Argo CD send.
	ServerSideApply Request = iota
	// Create checks it as a create (kubectl create, kubectl apply
	// without --server-side, the Terraform kubernetes provider's typed
	// resources).
	Create
)

func (r Request) String() string {
	if r == Create {
		return "create"
	}
	return "server-side apply"
}

// Options are the options of a check; the zero Options check a
// server-side apply. Messages always name every key and name: they are
// the user's structure, which the API server prints at apply too; values
// never show (reference §6).
type Options struct {
	Request Request
}

func (v Violation) String() string {
	path := v.Path
	if path == "" {
		path = "<root>"
	}
	return v.ID + ": " + path + ": " + v.Message
}

// Result is what Check finds in one document.
type Result struct {
	Checked    bool        // a schema covers the document's kind
	Waiting    bool        // some checks read values not known yet and wait
	Violations []Violation // every violation found on known values
}

// CheckAll checks every document and gives one line per violation, and
// per document a schema covers only in part (a version it does not
// serve), in document order. The error is a schema document that cannot be
// used (a *SchemaError), found when a document of a kind it defines is
// checked.
func (s *Schemas) CheckAll(docs []value.Value) ([]string, error) {
	return s.CheckAllWith(docs, Options{})
}

// CheckAllWith is CheckAll with options.
func (s *Schemas) CheckAllWith(docs []value.Value, o Options) ([]string, error) {
	var lines []string
	for _, d := range docs {
		r, err := s.CheckWith(d, o)
		var se *SchemaError
		if errors.As(err, &se) {
			return nil, err
		}
		if err != nil {
			lines = append(lines, err.Error())
			continue
		}
		for _, v := range r.Violations {
			lines = append(lines, v.String())
		}
	}
	return lines, nil
}

// RefusalText is the error of a failed validation, in the provider and on
// the command line: a count, then one violation per line.
func RefusalText(lines []string) string {
	noun := "violations"
	if len(lines) == 1 {
		noun = "violation"
	}
	return fmt.Sprintf("the API server would refuse these documents (%d %s):\n%s", len(lines), noun, strings.Join(lines, "\n"))
}

// Check validates one document. A document that is not an object, or whose
// API group and kind no schema covers, is not checked. A covered group and
// kind whose version has no schema is an error; so is a schema document
// that cannot be used (a *SchemaError).
func (s *Schemas) Check(doc value.Value) (Result, error) {
	return s.CheckWith(doc, Options{})
}

// CheckWith is Check with options.
func (s *Schemas) CheckWith(doc value.Value, o Options) (Result, error) {
	p, unknown := plain(doc)
	m, ok := p.(map[string]any)
	if !ok {
		return Result{}, nil
	}
	av, avOK := stringAt(m, "apiVersion")
	kind, kindOK := stringAt(m, "kind")
	if !avOK || !kindOK {
		return Result{Waiting: len(unknown) > 0}, nil
	}
	group, version, found := strings.Cut(av, "/")
	if !found {
		group, version = "", av // the core group
	}
	gk := schema.GroupKind{Group: group, Kind: kind}
	entry, versions, err := s.entry(gk, version)
	if err != nil {
		return Result{}, err
	}
	if versions == nil {
		if err := s.unknownKind(m, group, version, kind); err != nil {
			return Result{}, err
		}
		if builtinGroups[group] && !s.builtin.present() {
			return Result{}, fmt.Errorf("%s: no schema for a kind of the built-in group %s: %s", manifestID(m), shownGroup(group), noBuiltinsText)
		}
		return Result{}, nil
	}
	if entry == nil {
		return Result{}, fmt.Errorf("%s: no schema for kind %s in %s: the schemas cover group %s with %s",
			manifestID(m), kind, av, group, strings.Join(servedIn(versions), ", "))
	}
	ks, err := entry.get()
	if err != nil {
		return Result{}, err
	}
	errs := ks.validateSafely(m, unknown, o.Request)
	r := Result{Checked: true}
	id := manifestID(m)
	for _, e := range errs {
		path := fieldPath(e)
		if dependsOnUnknown(path, unknown) {
			r.Waiting = true
			continue
		}
		r.Violations = append(r.Violations, Violation{ID: id, Path: path, Message: message(e)})
	}
	if len(unknown) > 0 {
		r.Waiting = true
	}
	// The OpenAPI validator reports in map order; sort for a stable plan.
	sort.SliceStable(r.Violations, func(i, j int) bool {
		a, b := r.Violations[i], r.Violations[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Message < b.Message
	})
	return r, nil
}

// validate does to a copy of the document what the API server does to a
// new object, in the server's order, for the request req.
//
// A server-side apply (ssa.go): the field manager converts the applied
// object to its schema's type, refusing undeclared fields, values of the
// wrong shape and list-type map items without their keys or with the same
// key; it gives back the object with its nulls, which only a built-in
// kind's Go decoding drops; the schema's defaults are filled in (a null
// the schema does not allow takes its default).
//
// A create: decoding prunes unknown fields (and refuses them, as with
// kubectl's default strict field validation, which refuses them before
// anything else is checked), drops the nulls the schema does not allow
// and gives no default, and fills in the schema's defaults, nested ones
// included.
//
// Then, for both: a status subresource's status is reset, then object
// metadata (a document without metadata is refused: it has no name), the
// OpenAPI schema, embedded resources, list types and, when nothing blocks
// them, the x-kubernetes-validations rules with the runtime cost budget,
// on the defaulted object. Before metadata is checked, a name is generated
// from generateName, as the create handler does. An error at a path that
// reads an unknown value (at plan) does not block the rules: it waits for
// apply, and the rules still check everything known.
func (ks *kindSchema) validate(doc map[string]any, unknown []string, req Request) field.ErrorList {
	obj := deepCopy(doc)
	var errs field.ErrorList
	_, _, pruned, err := schemaobjectmeta.GetObjectMetaWithOptions(obj, schemaobjectmeta.ObjectMetaOptions{DropMalformedFields: true, ReturnUnknownFieldPaths: true})
	if err != nil {
		pruned = nil // metadata that is not an object: validateMeta says so
	}
	if req == ServerSideApply {
		if name, _ := stringAt(obj, "metadata", "name"); name == "" {
			if _, isMap := obj["metadata"].(map[string]any); isMap || obj["metadata"] == nil {
				// An apply names the object in its URL (generateName cannot
				// stand for it): kubectl and client-go refuse it unsent.
				return field.ErrorList{field.Required(field.NewPath("metadata", "name"), "name is required for server-side apply")}
			}
		}
		if errs = ks.applyErrors(deepCopy(obj)); len(errs) > 0 {
			return errs
		}
	}
	pruned = append(pruned, pruning.PruneWithOptions(obj, ks.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
	for _, p := range pruned {
		errs = append(errs, field.Invalid(field.NewPath(p), nil, "field not declared in schema"))
	}
	if len(errs) > 0 {
		return errs
	}
	if req == Create || ks.goTyped() {
		structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, ks.structural)
	}
	structuraldefaulting.Default(obj, ks.structural)
	if ks.dropStatus {
		delete(obj, "status")
	}
	if req == Create {
		generateName(obj)
	}
	errs = append(errs, ks.validateMeta(obj)...)
	errs = append(errs, apiservervalidation.ValidateCustomResource(nil, obj, ks.openapi)...)
	errs = append(errs, schemaobjectmeta.Validate(context.Background(), nil, obj, ks.structural, false)...)
	errs = append(errs, listtype.ValidateListSetsAndMaps(nil, ks.structural, obj)...)
	if ks.cel != nil {
		if blocking(errs, unknown) {
			errs = append(errs, field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"))
		} else {
			celErrs, _ := ks.cel.Validate(context.Background(), nil, ks.structural, obj, nil, celconfig.RuntimeCELCostBudget)
			errs = append(errs, celErrs...)
		}
	}
	return errs
}

// validateSafely is validate, turning a panic in the Kubernetes code into
// an error of the document: a check never takes the provider down.
func (ks *kindSchema) validateSafely(doc map[string]any, unknown []string, req Request) (errs field.ErrorList) {
	defer func() {
		if r := recover(); r != nil {
			errs = field.ErrorList{field.InternalError(nil, errors.New("the document could not be checked against its schema"))}
		}
	}()
	return ks.validate(doc, unknown, req)
}

// validateMeta checks metadata as a create does: the name (by the kind's
// rule, names.go), labels, annotations and the other ObjectMeta rules. A
// namespaced document without a namespace is checked as if in the one
// kubectl and Terraform providers default to; a cluster-scoped one's
// namespace is cleared, as the API server clears it.
func (ks *kindSchema) validateMeta(obj map[string]any) field.ErrorList {
	if obj["metadata"] == nil {
		// No metadata at all: every request refuses it, for want of a name.
		return field.ErrorList{field.Required(field.NewPath("metadata", "name"), "name or generateName is required")}
	}
	if _, ok := obj["metadata"].(map[string]any); !ok {
		return nil
	}
	u := &unstructured.Unstructured{Object: deepCopy(obj)}
	switch {
	case ks.namespaced && u.GetNamespace() == "":
		u.SetNamespace("default")
	case !ks.namespaced:
		u.SetNamespace("") // the API server clears a cluster-scoped object's namespace
	}
	return metavalidation.ValidateObjectMetaAccessor(u, ks.namespaced, ks.nameRule(obj), field.NewPath("metadata"))
}

// generateName gives a document with generateName and no name the name
// the API server would, the prefix and five random letters and digits
// (hidden in every message, like any name).
func generateName(obj map[string]any) {
	meta, _ := obj["metadata"].(map[string]any)
	if meta == nil {
		return
	}
	prefix, _ := meta["generateName"].(string)
	if name, _ := meta["name"].(string); name == "" && prefix != "" {
		meta["name"] = names.SimpleNameGenerator.GenerateName(prefix)
	}
}

// blocking reports whether errs hold an error after which the API server
// does not run the CEL rules (their input is not of the schema's shape).
func blocking(errs field.ErrorList, unknown []string) bool {
	for _, e := range errs {
		if dependsOnUnknown(fieldPath(e), unknown) {
			continue
		}
		switch e.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return true
		}
	}
	return false
}

// fieldPath is an error's field path, "" for the document itself.
func fieldPath(e *field.Error) string {
	if e.Field == "<nil>" {
		return ""
	}
	return e.Field
}

// message words an error as the API server does ("Invalid value: ...",
// "Required value", "Unsupported value: supported values: ...") but leaves
// out the value.
func message(e *field.Error) string {
	detail := e.Detail
	if v, ok := e.BadValue.(string); ok && !jsonTypes[v] {
		// kube-openapi ends a format error's detail with the quoted value
		// (a type error's with the value's type, which stays).
		detail = strings.TrimSuffix(detail, ": "+strconv.Quote(v))
	}
	if detail == "" {
		return e.Type.String()
	}
	return e.Type.String() + ": " + detail
}

var jsonTypes = map[string]bool{"string": true, "integer": true, "number": true, "boolean": true, "array": true, "object": true, "null": true}

func dependsOnUnknown(path string, unknown []string) bool {
	for _, u := range unknown {
		if related(path, u) {
			return true
		}
	}
	return false
}
