package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

var _ caller = &manifestsFunction{}

// manifestsFunction is provider::celyaml::manifests(documents).
type manifestsFunction struct{}

func (f *manifestsFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "manifests"
}

func (f *manifestsFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Key Kubernetes manifests by group/Kind/namespace/name for for_each",
		MarkdownDescription: "Takes a document or a tuple of documents, usually the result of `render` or " +
			"`render_file`, and returns an object of every document that has `kind` and `metadata.name`, " +
			"keyed by `group/Kind/namespace/name`:\n\n" +
			"- `group` is the part of `apiVersion` before `/`, or `_` for the core group (`v1`) and for a " +
			"document without `apiVersion`;\n" +
			"- `namespace` is `metadata.namespace`, or `_` when absent.\n\n" +
			"Examples: `apps/Deployment/prod/cart`, `_/Service/_/cart`. Documents without `kind` or " +
			"`metadata.name` are left out. Two documents with the same key are an error that names both " +
			"documents' indexes (counted from 0) and the key. `null` gives an empty object.\n\n" +
			"The keys are stable, so `for_each` over the result maps each manifest to one resource " +
			"instance, e.g. `kubernetes_manifest`.\n\n" +
			"**Unknown values.** The keys are known whenever every `kind`, `metadata.name`, " +
			"`metadata.namespace` and `apiVersion` is known; the documents may hold unknown values " +
			"elsewhere, so `for_each` works during plan before, say, an image URI exists. Only when one " +
			"of those fields, a whole document, or the list of documents is unknown is the whole result " +
			"unknown.",
		Parameters: []function.Parameter{
			function.DynamicParameter{
				Name:                "documents",
				MarkdownDescription: "A document (an object) or a tuple of documents.",
				AllowNullValue:      true,
				AllowUnknownValues:  true,
			},
		},
		Return: function.DynamicReturn{},
	}
}

func (f *manifestsFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	runCall(ctx, f, req, resp)
}

func (f *manifestsFunction) call(ctx context.Context, args []tftypes.Value) (tftypes.Value, *function.FuncError) {
	docs, unknown, err := documentsOf(args[0])
	if err != nil {
		return tftypes.Value{}, function.NewArgumentFuncError(0, err.Error())
	}
	if unknown {
		return dynamicUnknown, nil
	}
	m, err := buildManifests(docs)
	if err != nil {
		return tftypes.Value{}, function.NewArgumentFuncError(0, err.Error())
	}
	tflog.Debug(ctx, "celyaml manifests: keyed documents", map[string]any{"documents": len(docs)})
	return m, nil
}
