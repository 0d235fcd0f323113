package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

var _ caller = &renderFileFunction{}

// renderFileFunction is provider::celyaml::render_file(path, context).
type renderFileFunction struct {
	engine func(context.Context) *engine.Engine
}

// rendersTemplate marks it a templateRenderer (server.go).
func (f *renderFileFunction) rendersTemplate() {}

func (f *renderFileFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "render_file"
}

func (f *renderFileFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Render a CEL-YAML template file",
		MarkdownDescription: "Reads the CEL-YAML template at `path`, renders it with the variables in " +
			"`context` and returns what the `celyaml_render` data source's `result` holds: the document " +
			"itself when the file renders exactly one document, otherwise a tuple of the documents (an " +
			"empty tuple for none).\n\n" +
			"A relative `path` resolves against Terraform's working directory, as with `file()`; write " +
			"`\"${path.module}/app.yaml\"` so that the module works wherever it is called from. `$include` " +
			"paths in the file resolve against the file's own directory, so a module finds its own " +
			"includes, also when Terraform installed it under `.terraform/modules`. Like `file()` and " +
			"`templatefile()`, the function can read any file Terraform can read.\n\n" +
			"Errors are function errors whose text starts with `PATH:LINE:COLUMN:` and shows the " +
			"directive path, the include chain and, for a CEL error, the expression with a caret." +
			unknownAndResultDoc,
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "path",
				MarkdownDescription: "Path to the template file, usually `\"${path.module}/NAME.yaml\"`.",
				AllowUnknownValues:  true,
			},
			contextParameter(),
		},
		Return: function.DynamicReturn{},
	}
}

func (f *renderFileFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	runCall(ctx, f, req, resp)
}

func (f *renderFileFunction) call(ctx context.Context, args []tftypes.Value) (tftypes.Value, *function.FuncError) {
	return renderCall(ctx, "render_file", args, f.engine, f.render(ctx))
}

func (f *renderFileFunction) callRaw(ctx context.Context, args []*tfprotov6.DynamicValue) ([]byte, *function.FuncError, bool) {
	return renderCallRaw(ctx, "render_file", args, f.engine, f.render(ctx))
}

func (f *renderFileFunction) render(ctx context.Context) renderBody {
	return func(e *engine.Engine, path string, vars map[string]value.Value) (engine.Source, []value.Value, error) {
		// RenderFile is LoadFile and Render; the source is kept for the
		// check at plan (plan_check.go).
		src, err := e.LoadFile(ctx, path)
		if err != nil {
			return src, nil, err
		}
		docs, err := e.Render(ctx, src, vars)
		return src, docs, err
	}
}
