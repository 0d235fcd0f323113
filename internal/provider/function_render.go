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

var _ caller = &renderFunction{}

// renderFunction is provider::celyaml::render(template, context).
type renderFunction struct {
	engine func(context.Context) *engine.Engine
}

// rendersTemplate marks it a templateRenderer (server.go).
func (f *renderFunction) rendersTemplate() {}

func (f *renderFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "render"
}

// contextParameter is the context parameter every rendering function takes.
func contextParameter() function.DynamicParameter {
	return function.DynamicParameter{
		Name: "context",
		MarkdownDescription: "An object whose top-level attributes become the template's variables, " +
			"e.g. `{ env = \"prod\", replicas = 3 }`. `{}` or `null` means no variables " +
			"(on OpenTofu write `{}`: it does not pass a bare `null` to provider functions). Objects and maps become " +
			"CEL maps; lists, tuples and sets become CEL lists; whole numbers within 64 bits become `int`, " +
			"other numbers `double`. Values may be unknown during plan.",
		AllowNullValue:     true,
		AllowUnknownValues: true,
	}
}

// unknownAndResultDoc is the part of every rendering function's
// description that explains unknown values and sensitivity.
const unknownAndResultDoc = "\n\n" +
	"**Unknown values.** The context may hold values that are unknown during `terraform plan` " +
	"(for example the attribute of a resource that is not created yet). The result is then as " +
	"known as possible: a value that reads an unknown is unknown; a structure decided by an unknown " +
	"(an `$if` condition, a `$for` collection, a `$key`, an `$include` path) is unknown as a whole at " +
	"the smallest enclosing node; everything else is known. If the number of documents depends on " +
	"an unknown, or the first argument itself is unknown, the whole result is unknown. Each unknown " +
	"is typed as precisely as known: by its input's type, its `$schema`, CEL's checker, and in a " +
	"document of a built-in kind or of a CustomResourceDefinition in the same render by the type the " +
	"kind's schema declares at its place, as `kubernetes_manifest` reads it; an unknown list, map or " +
	"object is returned of dynamic type (the unknown-values guide, \"What is typed from where\"). While the " +
	"context holds an unknown value, the template's expressions are also type-checked as " +
	"`celyaml check` does, so that a field its `$schema` does not declare or an operator on the " +
	"wrong types fails the plan, not only the apply.\n\n" +
	"**Sensitive values.** If an argument is sensitive, Terraform marks the whole result sensitive."

func (f *renderFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Render a CEL-YAML template given as a string",
		MarkdownDescription: "Renders the CEL-YAML template `template` with the variables in `context` and " +
			"returns what the `celyaml_render` data source's `result` holds: the document itself when the " +
			"template renders exactly one document, otherwise a tuple of the documents (an empty tuple for " +
			"none). Mappings become objects and sequences tuples; integers stay exact.\n\n" +
			"`$include` paths in the template resolve against Terraform's working directory (the root " +
			"module), as relative paths in `file()` do. To include files next to a module, use " +
			"`render_file` or the data source's `base_dir`.\n\n" +
			"In an HCL string or heredoc `${` starts a Terraform interpolation, so write CEL-YAML's " +
			"`${{ expr }}` as `$${{ expr }}`; a template read with `file()` needs no escaping.\n\n" +
			"Errors are function errors whose text starts with `<inline>:LINE:COLUMN:` and shows the " +
			"directive path and, for a CEL error, the expression with a caret under the failing column." +
			unknownAndResultDoc,
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "template",
				MarkdownDescription: "The template text: a YAML stream that may hold several `---` documents.",
				AllowUnknownValues:  true,
			},
			contextParameter(),
		},
		Return: function.DynamicReturn{},
	}
}

func (f *renderFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	runCall(ctx, f, req, resp)
}

func (f *renderFunction) call(ctx context.Context, args []tftypes.Value) (tftypes.Value, *function.FuncError) {
	return renderCall(ctx, "render", args, f.engine, f.render(ctx))
}

func (f *renderFunction) callRaw(ctx context.Context, args []*tfprotov6.DynamicValue) ([]byte, *function.FuncError, bool) {
	return renderCallRaw(ctx, "render", args, f.engine, f.render(ctx))
}

func (f *renderFunction) render(ctx context.Context) renderBody {
	return func(e *engine.Engine, text string, vars map[string]value.Value) (engine.Source, []value.Value, error) {
		src := engine.Source{Text: []byte(text)}
		docs, err := e.Render(ctx, src, vars)
		return src, docs, err
	}
}

// renderBody renders for render or render_file, and gives the source it
// rendered, for the check at plan (plan_check.go).
type renderBody func(e *engine.Engine, first string, vars map[string]value.Value) (engine.Source, []value.Value, error)

// renderCallRaw is renderCall on the raw path.
func renderCallRaw(ctx context.Context, name string, args []*tfprotov6.DynamicValue, eng func(context.Context) *engine.Engine, render renderBody) ([]byte, *function.FuncError, bool) {
	first, vars, unknown, ok := rawArguments(args)
	if !ok {
		return nil, nil, false
	}
	if unknown {
		return rawResult(value.Unknown{})
	}
	e := eng(ctx)
	src, docs, err := render(e, first, vars)
	if err != nil {
		tflog.Debug(ctx, "celyaml function: rendering failed", map[string]any{"function": name})
		return nil, funcError(err), true
	}
	if ferr := planCheckCall(ctx, name, e, src, vars, rawPartlyUnknown(args[1], vars)); ferr != nil {
		return nil, ferr, true
	}
	if value.IsUnknownStream(docs) {
		return rawResult(value.Unknown{})
	}
	if docs, err = typeDocuments(docs); err != nil {
		return nil, funcError(err), true
	}
	// No log line on success: eval logs none either, and each line costs
	// the provider about 36 µs (hclog writes JSON with the caller's
	// location, Terraform parses it even with logging off): an eighth of
	// a render_file() call of the kitchen sink in a reattached plan.
	if len(docs) == 1 {
		return rawResult(docs[0])
	}
	return rawResult(docs)
}

// knownArguments checks the first argument and converts the context, the
// prologue every function taking (string, context) shares: an error for a
// null first argument or a bad context; unknown when the first argument or
// the whole context is unknown, so that the result is unknown.
func knownArguments(ctx context.Context, name, what string, args []tftypes.Value) (first string, vars map[string]value.Value, unknown bool, ferr *function.FuncError) {
	if args[0].IsNull() {
		return "", nil, false, function.NewArgumentFuncError(0, what+" must not be null")
	}
	if !args[0].IsKnown() {
		tflog.Trace(ctx, "celyaml function: first argument unknown, result unknown", map[string]any{"function": name})
		return "", nil, true, nil
	}
	if err := args[0].As(&first); err != nil {
		return "", nil, false, function.NewArgumentFuncError(0, err.Error())
	}
	vars, unknown, err := contextVars(args[1])
	if err != nil {
		return "", nil, false, function.NewArgumentFuncError(1, err.Error())
	}
	if unknown {
		tflog.Trace(ctx, "celyaml function: context wholly unknown, result unknown", map[string]any{"function": name})
	}
	return first, vars, unknown, nil
}

// renderCall is the body that render and render_file share: unknown and
// null handling, the context conversion, the engine call and the result.
func renderCall(ctx context.Context, name string, args []tftypes.Value, eng func(context.Context) *engine.Engine, render renderBody) (tftypes.Value, *function.FuncError) {
	first, vars, unknown, ferr := knownArguments(ctx, name, "the first argument", args)
	if ferr != nil {
		return tftypes.Value{}, ferr
	}
	if unknown {
		return dynamicUnknown, nil
	}
	tflog.Trace(ctx, "celyaml function: rendering", map[string]any{"function": name, "variables": len(vars)})
	e := eng(ctx)
	src, docs, err := render(e, first, vars)
	if err != nil {
		tflog.Debug(ctx, "celyaml function: rendering failed", map[string]any{"function": name})
		return tftypes.Value{}, funcError(err)
	}
	if ferr := planCheckCall(ctx, name, e, src, vars, partlyUnknown(vars)); ferr != nil {
		return tftypes.Value{}, ferr
	}
	if docs, err = typeDocuments(docs); err != nil {
		return tftypes.Value{}, funcError(err)
	}
	vals, unknown, err := documentsToTerraform(docs)
	if err != nil {
		return tftypes.Value{}, funcError(err)
	}
	if unknown {
		tflog.Debug(ctx, "celyaml function: number of documents unknown, result unknown", map[string]any{"function": name})
		return dynamicUnknown, nil
	}
	return resultOf(vals), nil
}
