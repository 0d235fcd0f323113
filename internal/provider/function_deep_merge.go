package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// deepMergeFunction is provider::celyaml::deep_merge(values...). It is
// variadic, so the framework answers its calls (server.go answers only
// the fixed-arity functions directly).
type deepMergeFunction struct{}

func (f *deepMergeFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "deep_merge"
}

func (f *deepMergeFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Merge values deeply, later ones winning",
		MarkdownDescription: "Merges `values` from left to right by the merge rule of the language " +
			"(JSON Merge Patch, RFC 7386, as Helm's layered values files): objects and maps merge key by " +
			"key at any depth and the later value wins; lists and tuples replace, they are never " +
			"concatenated; a `null` deletes the key it stands for. Terraform's own `merge()` is shallow: " +
			"`merge(defaults, { image = { tag = \"1.2.3\" } })` drops `image.repository`, " +
			"`deep_merge(defaults, { image = { tag = \"1.2.3\" } })` keeps it.\n\n" +
			"A `null` argument is skipped; with no arguments, or only `null`s, the result is `null`. " +
			"A merged object keeps no distinction between objects and maps, or lists and tuples: the " +
			"result holds objects and tuples.\n\n" +
			"**Unknown values.** During plan, what is known is merged: a key whose winning value is " +
			"unknown is unknown, the other keys stay known. An argument that is unknown as a whole makes " +
			"the result unknown.",
		VariadicParameter: function.DynamicParameter{
			Name:                "values",
			MarkdownDescription: "The values to merge, in order: usually objects, e.g. `yamldecode(file(\"values.yaml\"))`, `var.overrides`.",
			AllowNullValue:      true,
			AllowUnknownValues:  true,
		},
		Return: function.DynamicReturn{},
	}
}

func (f *deepMergeFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var values attr.Value
	if resp.Error = req.Arguments.Get(ctx, &values); resp.Error != nil {
		return
	}
	tv, err := values.ToTerraformValue(ctx)
	if err != nil {
		resp.Error = function.NewFuncError(err.Error())
		return
	}
	var args []tftypes.Value
	if tv.IsKnown() && !tv.IsNull() {
		if err := tv.As(&args); err != nil {
			resp.Error = function.NewFuncError(err.Error())
			return
		}
	}
	result, ferr := deepMerge(args)
	if ferr != nil {
		resp.Error = ferr
		return
	}
	dv, err := basetypes.DynamicType{}.ValueFromTerraform(ctx, result)
	if err != nil {
		resp.Error = function.NewFuncError(err.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, dv)
}

// deepMerge merges args left to right by merge.Patch, skipping nulls: the
// first argument that is not null is the base, and each later one is
// merged onto the result.
// callRaw is deepMerge on the raw path (server_raw.go).
func (f *deepMergeFunction) callRaw(_ context.Context, args []*tfprotov6.DynamicValue) ([]byte, *function.FuncError, bool) {
	vals := make([]value.Value, len(args))
	for i, a := range args {
		if a == nil || a.MsgPack == nil {
			return nil, nil, false
		}
		v, _, err := decodeDynamic(a.MsgPack)
		if err != nil {
			return nil, nil, false //nolint:nilerr // declining: the framework words the error
		}
		if _, unknown := v.(value.Unknown); unknown {
			return rawResult(value.Unknown{})
		}
		vals[i] = v
	}
	return rawResult(mergeLayers(vals))
}

func deepMerge(args []tftypes.Value) (tftypes.Value, *function.FuncError) {
	vals := make([]value.Value, len(args))
	for i, a := range args {
		if !a.IsKnown() {
			return dynamicUnknown, nil
		}
		v, err := toEngine(a)
		if err != nil {
			return tftypes.Value{}, function.NewArgumentFuncError(int64(i), err.Error())
		}
		vals[i] = v
	}
	tv, err := fromEngine(mergeLayers(vals))
	if err != nil {
		return tftypes.Value{}, function.NewFuncError(err.Error())
	}
	return tv, nil
}

// mergeLayers merges known values left to right by the merge rule,
// skipping nulls; the first non-null value is the base, as it is, so
// deep_merge(x) is x. No values, or only nulls, give null.
func mergeLayers(vals []value.Value) value.Value {
	var out value.Value
	first := true
	for _, v := range vals {
		switch {
		case v == nil:
		case first:
			out, first = v, false
		default:
			out = merge.Patch(out, v)
		}
	}
	return out
}
