package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

var _ caller = &evalFunction{}

// evalFunction is provider::celyaml::eval(expression, context).
type evalFunction struct {
	engine func(context.Context) *engine.Engine
}

func (f *evalFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "eval"
}

func (f *evalFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Evaluate one CEL expression",
		MarkdownDescription: "Evaluates the CEL expression `expression` with the variables in `context` and " +
			"returns its value: CEL maps become objects, lists become tuples, `int` and `uint` become " +
			"exact numbers, and values Terraform cannot hold (timestamps, durations, bytes, quantities, " +
			"...) become strings, as in a template's `$eval`. The expression sees the same environment as " +
			"templates: CEL's standard library, cel-go's extensions, the Kubernetes CEL libraries and the " +
			"template helpers (`json.encode`, `yaml.encode`, `sha256`, ...).\n\n" +
			"Example: `provider::celyaml::eval(\"quantity(limit).compareTo(quantity('1Gi')) > 0\", { limit = \"2Gi\" })` " +
			"is `true`.\n\n" +
			"Errors are function errors that show the expression with a caret under the failing column.\n\n" +
			"**Unknown values.** If the expression reads a variable that is unknown during plan, the result " +
			"is unknown; an expression that does not read it stays known. If `expression` itself is " +
			"unknown, so is the result.\n\n" +
			"**Sensitive values.** If an argument is sensitive, Terraform marks the result sensitive.",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "expression",
				MarkdownDescription: "A CEL expression, e.g. `\"replicas * 2\"`. It is not wrapped in `${{ }}`.",
				AllowUnknownValues:  true,
			},
			contextParameter(),
		},
		Return: function.DynamicReturn{},
	}
}

func (f *evalFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	runCall(ctx, f, req, resp)
}

func (f *evalFunction) call(ctx context.Context, args []tftypes.Value) (tftypes.Value, *function.FuncError) {
	expr, vars, unknown, ferr := knownArguments(ctx, "eval", "the expression", args)
	if ferr != nil {
		return tftypes.Value{}, ferr
	}
	if unknown {
		return dynamicUnknown, nil
	}
	tflog.Trace(ctx, "celyaml eval: evaluating", map[string]any{"variables": len(vars)})
	v, err := f.engine(ctx).Eval(ctx, expr, vars)
	if err != nil {
		tflog.Debug(ctx, "celyaml eval: evaluation failed")
		return tftypes.Value{}, funcError(err)
	}
	tv, err := fromEngine(v)
	if err != nil {
		return tftypes.Value{}, funcError(err)
	}
	return tv, nil
}

func (f *evalFunction) callRaw(ctx context.Context, args []*tfprotov6.DynamicValue) ([]byte, *function.FuncError, bool) {
	expr, vars, unknown, ok := rawArguments(args)
	if !ok {
		return nil, nil, false
	}
	if unknown {
		return rawResult(value.Unknown{})
	}
	v, err := f.engine(ctx).Eval(ctx, expr, vars)
	if err != nil {
		tflog.Debug(ctx, "celyaml eval: evaluation failed")
		return nil, funcError(err), true
	}
	return rawResult(v)
}
