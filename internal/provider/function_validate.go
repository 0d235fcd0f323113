package provider

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	manifestcheck "github.com/celyaml/terraform-provider-celyaml/internal/validate"
)

var _ caller = &validateFunction{}

// validateFunction is provider::celyaml::validate(documents, schemas).
type validateFunction struct{}

func (f *validateFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "validate"
}

func (f *validateFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Check Kubernetes manifests against CRD schemas and their CEL rules at plan time",
		MarkdownDescription: "Checks documents, usually the result of `render` or `render_file`, as the " +
			"Kubernetes API server checks a server-side apply that creates them (what `kubernetes_manifest`, " +
			"`kubectl apply --server-side`, Flux and Argo CD send), and returns them unchanged when every one passes. " +
			"`schemas` holds CustomResourceDefinitions (`apiextensions.k8s.io/v1`), every served version " +
			"of each (other objects of a release bundle are ignored), and OpenAPI v3 documents as the API server serves them under `/openapi/v3/` " +
			"(`kubectl get --raw /openapi/v3/apis/apps/v1`), whose kinds (those its paths serve in its own " +
			"group-version) replace the provider's own. The provider carries the schemas of every built-in kind " +
			"of the Kubernetes minor it is built against (1.37: Deployment, Service, ConfigMap, Role, ...), so " +
			"built-in kinds are checked with `schemas = []`; a CRD or a saved document of the same group and " +
			"kind overrides them. The API server's steps run in its order, " +
			"with its own code, on a copy of each document: the field manager refuses unknown fields, values " +
			"of the wrong type and list-type map items without or with repeated keys; a custom resource's `null` " +
			"stays and is refused where the schema neither allows nor defaults it; the schema's `default`s are filled in (nested ones included; not " +
			"for built-in kinds, which the server defaults in Go), then the structural schema (types, " +
			"`required`, `enum`, `pattern`, `format`, bounds, metadata with each built-in kind's name rule, list types) and the " +
			"`x-kubernetes-validations` rules, with `message` and `messageExpression`, Kubernetes' " +
			"property-name escaping and cost limits, are checked on the defaulted object.\n\n" +
			"When a document would be refused, the call fails with one error listing every violation, one per line: the " +
			"document's whole manifest ID (`group/Kind/namespace/name`, as `manifests` keys it), the field " +
			"path with every key named and the API server's message, never the offending value.\n\n" +
			"Coverage is per group: a document of a group no schema defines is not checked; a kind a group-version's " +
			"schemas do not define is an error naming its kinds (`did you mean Deployment?`). " +
			"A document whose group and kind have a schema, but not for its version (say `v1beta1` where " +
			"only `v1` is served), is an error, and so is a CRD the API server would refuse (for example a " +
			"rule over its cost limit). Transition rules (those reading `oldSelf`) are skipped: there is no old object. " +
			"The documents come back as they went in: the server fills its defaults itself.\n\n" +
			"**Unknown values.** Checks at or above a value not known yet wait for apply, when Terraform " +
			"calls the function again; everything else is checked at plan. When `schemas`, or the list " +
			"of documents, is unknown, nothing is checked at plan. Otherwise the documents come back with " +
			"each unknown value in them typed as its kind's schema declares it at its place, as " +
			"`kubernetes_manifest` reads a manifest (the unknown-values guide, \"What is typed from where\"); " +
			"an unknown whose type disagrees with its place is an error naming both types.",
		Parameters: []function.Parameter{
			function.DynamicParameter{
				Name:                "documents",
				MarkdownDescription: "A document (an object) or a tuple of documents.",
				AllowNullValue:      true,
				AllowUnknownValues:  true,
			},
			function.DynamicParameter{
				Name:                "schemas",
				MarkdownDescription: "A CustomResourceDefinition or OpenAPI v3 document, or a tuple of them, e.g. `render_file` of the operator's CRD file or `jsondecode(file(...))` of a saved `/openapi/v3` document.",
				AllowNullValue:      true,
				AllowUnknownValues:  true,
			},
		},
		Return: function.DynamicReturn{},
	}
}

func (f *validateFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	runCall(ctx, f, req, resp)
}

func (f *validateFunction) call(ctx context.Context, args []tftypes.Value) (tftypes.Value, *function.FuncError) {
	docs, unknownDocs, err := documentsOf(args[0])
	if err != nil {
		return tftypes.Value{}, function.NewArgumentFuncError(0, err.Error())
	}
	schemas, err := loadSchemas(args[1])
	if errors.Is(err, manifestcheck.ErrUnknownSchemas) || unknownDocs {
		return args[0], nil
	}
	if err != nil {
		return tftypes.Value{}, function.NewArgumentFuncError(1, err.Error())
	}
	values := make([]value.Value, len(docs))
	for i, d := range docs {
		v, err := toEngine(d)
		if err != nil {
			return tftypes.Value{}, function.NewArgumentFuncError(0, fmt.Sprintf("document %d: %s", i, err))
		}
		values[i] = v
	}
	lines, err := schemas.CheckAll(values)
	if err != nil {
		return tftypes.Value{}, function.NewArgumentFuncError(1, err.Error())
	}
	tflog.Debug(ctx, "celyaml validate: checked documents", map[string]any{"documents": len(docs), "violations": len(lines)})
	if len(lines) > 0 {
		return tftypes.Value{}, function.NewArgumentFuncError(0, manifestcheck.RefusalText(lines))
	}
	return typedDocuments(args[0], values, schemas)
}

// typedDocuments is validate's result: its documents argument, with the
// unknowns in it typed from the schemas (document_types.go) when that
// changes any.
func typedDocuments(arg tftypes.Value, values []value.Value, schemas *manifestcheck.Schemas) (tftypes.Value, *function.FuncError) {
	if !containsUnknown(values) {
		return arg, nil
	}
	typed, err := typeDocumentsBy(values, schemas)
	if err != nil {
		return tftypes.Value{}, function.NewArgumentFuncError(0, err.Error())
	}
	changed := false
	for i := range typed {
		tm, typedMap := typed[i].(*value.Map)
		vm, valueMap := values[i].(*value.Map)
		changed = changed || (typedMap && valueMap && tm != vm)
	}
	if !changed {
		return arg, nil
	}
	vals, _, err := documentsToTerraform(typed)
	if err != nil {
		return tftypes.Value{}, function.NewArgumentFuncError(0, err.Error())
	}
	if arg.Type().Is(tftypes.Object{}) || arg.Type().Is(tftypes.Map{}) {
		return vals[0], nil
	}
	return tupleOf(vals), nil
}

// schemaCache keeps, per process, the schemas read from the last few
// schemas arguments, keyed by a hash of the argument: Terraform calls
// validate many times per run with the same schemas, and a Schemas builds
// each kind's validators (its CRD validation, the compilation of its
// rules) once, the first time a document of the kind is checked, and keeps
// them. A Schemas is safe for concurrent use.
var schemaCache = struct {
	sync.Mutex
	m map[[sha256.Size]byte]*manifestcheck.Schemas
}{m: map[[sha256.Size]byte]*manifestcheck.Schemas{}}

// schemaCacheSize bounds schemaCache; past it the cache starts again.
const schemaCacheSize = 8

// loadSchemas reads validate's schemas argument, from schemaCache when
// the same argument was read before.
func loadSchemas(arg tftypes.Value) (*manifestcheck.Schemas, error) {
	key := sha256.Sum256([]byte(arg.String()))
	schemaCache.Lock()
	s := schemaCache.m[key]
	schemaCache.Unlock()
	if s != nil {
		return s, nil
	}
	s, err := buildSchemas(arg)
	if err != nil {
		return nil, err
	}
	schemaCache.Lock()
	if len(schemaCache.m) >= schemaCacheSize {
		clear(schemaCache.m)
	}
	schemaCache.m[key] = s
	schemaCache.Unlock()
	return s, nil
}

// buildSchemas reads validate's schemas argument.
func buildSchemas(arg tftypes.Value) (*manifestcheck.Schemas, error) {
	docs, unknown, err := documentsOf(arg)
	if err != nil {
		return nil, errors.New(strings.Replace(err.Error(), "documents must be", "schemas must be", 1))
	}
	if unknown {
		return nil, manifestcheck.ErrUnknownSchemas
	}
	vals := make([]value.Value, len(docs))
	for i, d := range docs {
		if vals[i], err = toEngine(d); err != nil {
			return nil, fmt.Errorf("schemas: document %d: %w", i, err)
		}
	}
	return manifestcheck.Load(vals)
}
