package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// toYAMLFunction is provider::celyaml::to_yaml(value). It returns a
// string, so the framework answers its calls (server.go's direct path
// returns only dynamic results).
type toYAMLFunction struct{}

func (f *toYAMLFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "to_yaml"
}

func (f *toYAMLFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Write one value as one YAML document",
		MarkdownDescription: "Writes `value` as one YAML document, by the same rules as the `yaml` " +
			"attribute of `celyaml_render`: block style, object keys sorted, a string that a YAML 1.1 " +
			"or 1.2 reader would take for another type quoted (`\"yes\"`, `\"0777\"`, `\"1e3\"`), whole " +
			"numbers written as integers. Use it for `local_file`'s `content` or `kubectl_manifest`'s " +
			"`yaml_body`, where `yamlencode()` leaves such strings unquoted for YAML 1.1 readers.\n\n" +
			"**Unknown values.** If any part of `value` is unknown during plan, the result is unknown.",
		Parameters: []function.Parameter{
			function.DynamicParameter{
				Name:                "value",
				MarkdownDescription: "Any value: an object, a tuple, a string, ...; `null` gives `null\\n`.",
				AllowNullValue:      true,
				AllowUnknownValues:  true,
			},
		},
		Return: function.StringReturn{},
	}
}

func (f *toYAMLFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var v attr.Value
	if resp.Error = req.Arguments.Get(ctx, &v); resp.Error != nil {
		return
	}
	tv, err := v.ToTerraformValue(ctx)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, err.Error())
		return
	}
	text, unknown, ferr := toYAML(tv)
	if ferr != nil {
		resp.Error = ferr
		return
	}
	if unknown {
		resp.Error = resp.Result.Set(ctx, types.StringUnknown())
		return
	}
	resp.Error = resp.Result.Set(ctx, types.StringValue(text))
}

// toYAML writes tv as one YAML document; unknown reports a value that is
// not wholly known.
func toYAML(tv tftypes.Value) (text string, unknown bool, ferr *function.FuncError) {
	if !tv.IsFullyKnown() {
		return "", true, nil
	}
	v, err := toEngine(tv)
	if err != nil {
		return "", false, function.NewArgumentFuncError(0, err.Error())
	}
	b, err := engine.EncodeYAML(v)
	if err != nil {
		return "", false, function.NewArgumentFuncError(0, err.Error())
	}
	return string(b), false, nil
}
