package provider

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

var (
	_ datasource.DataSource                   = &renderDataSource{}
	_ datasource.DataSourceWithValidateConfig = &renderDataSource{}
)

// renderDataSource is the celyaml_render data source.
type renderDataSource struct {
	engine func(context.Context) *engine.Engine
	// hidingKeys is the engine for sensitive = true, whose errors hide
	// the variables' keys too; nil in a data source built without the
	// provider, which then uses engine.
	hidingKeys func(context.Context) *engine.Engine
}

// engineFor is the engine of a render: the one hiding keys when the
// configuration sets sensitive = true.
func (d *renderDataSource) engineFor(ctx context.Context, sensitive bool) *engine.Engine {
	if sensitive && d.hidingKeys != nil {
		return d.hidingKeys(ctx)
	}
	return d.engine(ctx)
}

func (d *renderDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = renderTypeName
}

// renderDescription is the data source's description.
const renderDescription = "Renders a CEL-YAML template, inline or from a file, with the variables in " +
	"`context`, and exposes the result as YAML, JSON, Terraform values and a map of Kubernetes " +
	"manifests keyed for `for_each`.\n\n" +
	"**When it runs.** Terraform reads a data source during `plan` when its configuration is " +
	"wholly known. If `context` (or any other argument) holds a value that is unknown until " +
	"apply, such as the ID of a resource not created yet, Terraform defers the whole read to " +
	"apply and every attribute is unknown during plan, so `for_each` over `manifests` fails. " +
	"Terraform still validates the configuration, and the provider then type-checks the template's " +
	"expressions, so that a field its `$schema` does not declare fails the plan, not only the apply. " +
	"For results during plan, use the functions `provider::celyaml::render_file`, `render` and " +
	"`manifests`: they render what is known and keep only the parts that depend on unknown " +
	"values unknown.\n\n" +
	"**Files.** Like `file()` and `templatefile()`, the data source can read any file Terraform " +
	"can read.\n\n" +
	"**Secrets.** Terraform strips the sensitivity of a data source's arguments before the provider " +
	"sees them, and marks its results sensitive only by the schema. So a template that renders " +
	"secrets sets `sensitive = true`: the results then come in the `sensitive_` attributes " +
	"(`sensitive_yaml`, `sensitive_manifests`, ...), which Terraform hides in plans and outputs, and the plain " +
	"ones are null. Rendering a `Secret` with `data` or `stringData` without it gives a warning. " +
	"The functions need no such argument: their results carry the sensitivity of their arguments. " +
	"Error messages never show variable values."

func (d *renderDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: renderDescription,
		Attributes: map[string]schema.Attribute{
			"template": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Inline template text. It may hold several `---` documents. Exactly one of " +
					"`template` and `template_file` must be set. Use a heredoc (`<<-EOT`) or `file()`. " +
					"In an HCL string or heredoc `${` starts a Terraform interpolation, so write CEL-YAML's " +
					"`${{ expr }}` as `$${{ expr }}` (text read with `file()` needs no escaping). " +
					"Positions in error messages read `<inline>:LINE:COLUMN`.",
			},
			"template_file": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Path to a template file. A relative path resolves against Terraform's " +
					"working directory, as with `file()`: write `\"${path.module}/app.yaml\"`. `$include` in the " +
					"file resolves against the file's own directory, so a module finds its own files wherever " +
					"it is called from, also under `.terraform/modules`. Exactly one of `template` and " +
					"`template_file` must be set.",
			},
			"base_dir": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Directory that relative `$include` paths in an inline `template` resolve " +
					"against. Default: Terraform's working directory. Write `path.module` so that a module's " +
					"inline template finds the module's files. Not used with `template_file`, whose includes " +
					"resolve against the file's directory.",
			},
			"context": schema.DynamicAttribute{
				Optional: true,
				MarkdownDescription: "An object whose top-level attributes become the template's variables, e.g. " +
					"`{ env = \"prod\", services = [...] }`. Null or absent means no variables. Objects and maps " +
					"become CEL maps, lists, tuples and sets CEL lists; a number becomes `int` when whole and " +
					"within 64 bits, otherwise `double`.",
			},
			"sensitive": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "When `true`, the results come in the `sensitive_` attributes, which Terraform " +
					"marks sensitive, so that plans and outputs show `(sensitive value)` instead, and `yaml`, " +
					"`json`, `result`, `documents`, `yaml_documents` and `manifests` are null. Set it whenever " +
					"the template renders secrets: Terraform does not tell the provider that `context` holds " +
					"sensitive values. Default `false`; a rendered `Secret` with `data` or `stringData` then gives " +
					"a warning.",
			},
			"yaml": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The rendered YAML stream: the documents in order, separated by `---` lines " +
					"(none before the first). Empty when no document is rendered. Output is deterministic: " +
					"mappings written in the template keep their order, maps from CEL or Terraform are sorted.",
			},
			"json": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "`result` as compact JSON, with mapping keys in template order. `[]` when no " +
					"document is rendered.",
			},
			"result": schema.DynamicAttribute{
				Computed: true,
				MarkdownDescription: "If exactly one document is rendered, that document; otherwise a tuple of the " +
					"documents (an empty tuple for none). Mappings are objects and sequences tuples; integers " +
					"stay exact.",
			},
			"documents": schema.DynamicAttribute{
				Computed:            true,
				MarkdownDescription: "Always a tuple of the rendered documents, in order.",
			},
			"yaml_documents": schema.ListAttribute{
				Computed:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "One YAML text per rendered document, without `---` lines.",
			},
			"manifests": schema.DynamicAttribute{
				Computed: true,
				MarkdownDescription: "An object of every document that has `kind` and `metadata.name`, keyed by " +
					"`group/Kind/namespace/name`: `group` is the part of `apiVersion` before `/`, or `_` for the " +
					"core group (`v1`) and for a document without `apiVersion`; `namespace` is `_` when absent. " +
					"Examples: `apps/Deployment/prod/cart`, `_/Service/_/cart`. Documents without `kind` or " +
					"`metadata.name` are left out. Two documents with the same key are an error, even when " +
					"`manifests` is not read; it names the key and where the template produced each document. Use it as `for_each = data.celyaml_render.x.manifests`.",
			},
		},
	}
	addSensitiveTwins(resp.Schema.Attributes)
}

// addSensitiveTwins adds to attrs, for each result attribute, its
// sensitive_ twin: the same type, marked sensitive.
func addSensitiveTwins(attrs map[string]schema.Attribute) {
	for _, name := range resultAttributes {
		desc := "`" + name + "`, marked sensitive; set only with `sensitive = true`."
		var twin schema.Attribute
		switch a := attrs[name].(type) {
		case schema.StringAttribute:
			twin = schema.StringAttribute{Computed: true, Sensitive: true, MarkdownDescription: desc}
		case schema.ListAttribute:
			twin = schema.ListAttribute{Computed: true, Sensitive: true, ElementType: a.ElementType, MarkdownDescription: desc}
		case schema.DynamicAttribute:
			if name == "manifests" {
				desc += " Its keys are sensitive too, and Terraform refuses sensitive `for_each` keys: when the IDs are not secret, " +
					"write `for_each = toset(nonsensitive(keys(data.celyaml_render.x.sensitive_manifests)))` and " +
					"read `data.celyaml_render.x.sensitive_manifests[each.key]`."
			}
			twin = schema.DynamicAttribute{Computed: true, Sensitive: true, MarkdownDescription: desc}
		default:
			continue // every result attribute is one of the kinds above; a test checks each twin is served
		}
		attrs["sensitive_"+name] = twin
	}
}

// resultAttributes are the names of the computed results; each has a
// sensitive_ twin that holds it instead when the configuration sets
// sensitive = true.
var resultAttributes = []string{"documents", "json", "manifests", "result", "yaml", "yaml_documents"}

// sensitiveOf reads the sensitive argument of a configuration: true only
// when it is set to true.
func sensitiveOf(attrs map[string]tftypes.Value) bool {
	var b *bool
	if v, ok := attrs["sensitive"]; !ok || v.As(&b) != nil || b == nil {
		return false
	}
	return *b
}

// secretDataDocuments gives the indexes of the documents that are a
// Secret holding data or stringData: what a plan must not print.
func secretDataDocuments(docs []value.Value) []int {
	var out []int
	for i, d := range docs {
		m, ok := d.(*value.Map)
		if !ok {
			continue
		}
		if kind, _ := m.Get("kind"); kind != "Secret" {
			continue
		}
		for _, field := range []string{"data", "stringData"} {
			if v, ok := m.Get(field); ok && !emptyValue(v) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// emptyValue reports a null, an empty map or an empty list.
func emptyValue(v value.Value) bool {
	switch x := v.(type) {
	case nil:
		return true
	case *value.Map:
		return x.Len() == 0
	case []value.Value:
		return len(x) == 0
	}
	return false
}

// secretDataWarning is the warning for documents that are Secrets with
// data rendered into the plain, printable attributes.
func secretDataWarning(docs []int) diag.Diagnostic {
	which := "Document " + strconv.Itoa(docs[0]+1) + " is a Secret"
	if len(docs) > 1 {
		nums := make([]string, len(docs))
		for i, d := range docs {
			nums[i] = strconv.Itoa(d + 1)
		}
		which = "Documents " + strings.Join(nums, ", ") + " are Secrets"
	}
	return diag.NewAttributeWarningDiagnostic(path.Root("sensitive"),
		"Rendered Secret data is not marked sensitive",
		which+" with data or stringData, and the results (yaml, json, result, documents, yaml_documents, manifests) "+
			"are not sensitive: Terraform prints them in plans and in the outputs that use them, even when the "+
			"context holds sensitive variables, because Terraform does not pass that mark to the provider. "+
			"Set sensitive = true and read the sensitive_ attributes instead (sensitive_yaml, sensitive_manifests, ...).")
}

// renderTypeName is the data source's type name.
const renderTypeName = "celyaml_render"

// renderStateType is the data source's schema type, built once.
var renderStateType = sync.OnceValue(func() tftypes.Object {
	var resp datasource.SchemaResponse
	(&renderDataSource{}).Schema(context.Background(), datasource.SchemaRequest{}, &resp)
	// A schema's type is always an object; were it not, the empty object
	// would make renderState's validation fail with an error, not a panic.
	obj, _ := resp.Schema.Type().TerraformType(context.Background()).(tftypes.Object)
	return obj
})

// ValidateConfig checks the configuration; see validateRender. When the
// context holds an unknown value, Terraform defers the read to apply, so
// the template's expressions are checked here (plan_check.go).
func (d *renderDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	resp.Diagnostics.Append(validateRender(req.Config.Raw)...)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(d.planCheck(ctx, req.Config.Raw)...)
	}
}

// Read renders the template; see read.
func (d *renderDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	state, diags := d.read(ctx, req.Config.Raw)
	resp.Diagnostics.Append(diags...)
	if !diags.HasError() {
		resp.State.Raw = state
	}
}

// validateRender checks that exactly one of template and template_file is
// set (an unknown value counts as set), and warns about a base_dir that
// template_file ignores. It works on the raw configuration so that the
// protocol server (server.go) can call it without the framework's decoding.
func validateRender(config tftypes.Value) diag.Diagnostics {
	var diags diag.Diagnostics
	if !config.IsKnown() || config.IsNull() {
		return diags
	}
	var attrs map[string]tftypes.Value
	if err := config.As(&attrs); err != nil {
		diags.AddError("Invalid configuration", err.Error())
		return diags
	}
	return validateSet(!attrs["template"].IsNull(), !attrs["template_file"].IsNull(), !attrs["base_dir"].IsNull())
}

// validateSet is the rule on which of template, template_file and
// base_dir are set.
func validateSet(tmpl, file, baseDir bool) diag.Diagnostics {
	var diags diag.Diagnostics
	if baseDir && file && !tmpl {
		diags.AddAttributeWarning(path.Root("base_dir"),
			"base_dir has no effect with template_file",
			"$include in a template file resolves against the file's own directory; base_dir applies only to an inline \"template\". Remove base_dir.")
	}
	switch {
	case !tmpl && !file:
		diags.AddAttributeError(path.Root("template"),
			"Missing template",
			"Set exactly one of \"template\" (inline template text) and \"template_file\" (path to a template file); neither is set.")
	case tmpl && file:
		diags.AddAttributeError(path.Root("template_file"),
			"Conflicting template arguments",
			"Set exactly one of \"template\" (inline template text) and \"template_file\" (path to a template file); both are set.")
	}
	return diags
}

// read renders the template of a configuration and returns the state: the
// configured attributes as given, and every computed attribute. It works on
// raw Terraform values (see server.go for why).
func (d *renderDataSource) read(ctx context.Context, config tftypes.Value) (tftypes.Value, diag.Diagnostics) {
	in, diags := decodeRender(config)
	if diags.HasError() {
		return tftypes.Value{}, diags
	}
	rendered, err := d.render(ctx, &in)
	if err != nil {
		diags.AddAttributeError(in.at, "Template rendering failed", err.Error())
		return tftypes.Value{}, diags
	}
	docs := make([]value.Value, len(rendered))
	origins := make([]string, len(rendered))
	for i, r := range rendered {
		docs[i], origins[i] = r.Value, r.Origin.String()
	}
	if value.IsUnknownStream(docs) || containsUnknown(docs) {
		diags.AddAttributeError(in.at, "Template rendering failed",
			"The rendered documents hold unknown values, which a data source cannot return. This is a bug in the provider.")
		return tftypes.Value{}, diags
	}
	state, stateDiags := renderState(ctx, in, docs, origins)
	diags.Append(stateDiags...)
	return state, diags
}

// renderInputs is a configuration decoded for the engine.
type renderInputs struct {
	attrs               map[string]tftypes.Value // the configured attributes, as given
	tmpl, file, baseDir *string                  // nil when null
	vars                map[string]value.Value   // the context's variables
	at                  path.Path                // the attribute that rendering errors point at
	text                []byte                   // the template's text, once rendered
	sensitive           bool                     // sensitive = true: errors hide keys too
}

// decodeRender reads a configuration into the engine's inputs. A
// configuration with neither template nor template_file gets validation's
// error.
func decodeRender(config tftypes.Value) (renderInputs, diag.Diagnostics) {
	var diags diag.Diagnostics
	var in renderInputs
	if !config.IsFullyKnown() {
		diags.AddError("Invalid configuration",
			"The configuration is not wholly known. Terraform reads a data source only when its configuration is known; this is a bug in the provider or in Terraform.")
		return in, diags
	}
	if err := config.As(&in.attrs); err != nil {
		diags.AddError("Invalid configuration", err.Error())
		return in, diags
	}
	for name, dst := range map[string]**string{"template": &in.tmpl, "template_file": &in.file, "base_dir": &in.baseDir} {
		if err := in.attrs[name].As(dst); err != nil {
			diags.AddAttributeError(path.Root(name), "Invalid configuration", err.Error())
			return in, diags
		}
	}
	in.at = path.Root("template")
	if in.file != nil {
		in.at = path.Root("template_file")
	}
	in.sensitive = sensitiveOf(in.attrs)
	var err error
	if in.vars, _, err = contextVars(in.attrs["context"]); err != nil {
		diags.AddAttributeError(path.Root("context"), "Invalid context", err.Error())
		return in, diags
	}
	if in.tmpl == nil && in.file == nil {
		diags.Append(validateRender(config)...)
	}
	return in, diags
}

// render runs the engine on the decoded inputs: the file when template_file
// is set, otherwise the inline template.
func (d *renderDataSource) render(ctx context.Context, in *renderInputs) ([]engine.Document, error) {
	eng := d.engineFor(ctx, in.sensitive)
	var docs []engine.Document
	var err error
	switch {
	case in.file != nil:
		tflog.Debug(ctx, "celyaml_render: rendering file", map[string]any{"template_file": *in.file, "variables": len(in.vars)})
		var src engine.Source
		if src, err = eng.LoadFile(ctx, *in.file); err == nil {
			in.text = src.Text
			docs, err = eng.RenderDocuments(ctx, src, in.vars)
		}
	case in.tmpl != nil:
		src := engine.Source{Text: []byte(*in.tmpl)}
		in.text = src.Text
		if in.baseDir != nil {
			src.BaseDir = *in.baseDir
		}
		tflog.Debug(ctx, "celyaml_render: rendering inline template", map[string]any{"template_bytes": len(src.Text), "variables": len(in.vars)})
		docs, err = eng.RenderDocuments(ctx, src, in.vars)
	default:
		// decodeRender reports this configuration.
		return nil, errors.New("neither template nor template_file is set")
	}
	if err != nil {
		tflog.Debug(ctx, "celyaml_render: rendering failed")
	}
	return docs, err
}

// renderState builds the state from the configuration and the rendered
// documents. Each document is encoded and converted once; result,
// documents and manifests share the converted values. The YAML stream is
// written once and yaml_documents are slices of it.
func renderState(ctx context.Context, in renderInputs, docs []value.Value, origins []string) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	typ := renderStateType()
	fail := func(summary, detail string) (tftypes.Value, diag.Diagnostics) {
		diags.AddAttributeError(in.at, summary, detail)
		return tftypes.Value{}, diags
	}
	buf, spans, err := engine.EncodeYAMLStreamSpans(docs)
	if err != nil {
		return fail("Template rendering failed", err.Error())
	}
	stream := string(buf)
	yamlDocs := make([]tftypes.Value, len(docs))
	for i := range docs {
		yamlDocs[i] = tftypes.NewValue(tftypes.String, stream[spans[i][0]:spans[i][1]])
	}
	js, err := engine.EncodeJSONStream(docs)
	if err != nil {
		return fail("Template rendering failed", err.Error())
	}
	vals, _, err := documentsToTerraform(docs)
	if err != nil {
		return fail("Template rendering failed", err.Error())
	}
	manifests, err := buildManifests(vals)
	if err != nil {
		summary := "Invalid manifest"
		var dup *duplicateManifestError
		if errors.As(err, &dup) {
			summary = "Duplicate manifest ID"
			dup.Origins = [2]string{origins[dup.First], origins[dup.Second]}
			if in.sensitive {
				dup.Hide, dup.Written = true, templateScalars(in.text)
			}
		}
		return fail(summary, err.Error())
	}
	tflog.Debug(ctx, "celyaml_render: rendered", map[string]any{"documents": len(docs), "yaml_bytes": len(stream)})

	results := map[string]tftypes.Value{
		"yaml":           tftypes.NewValue(tftypes.String, stream),
		"json":           tftypes.NewValue(tftypes.String, string(js)),
		"result":         resultOf(vals),
		"documents":      tupleOf(vals),
		"yaml_documents": tftypes.NewValue(typ.AttributeTypes["yaml_documents"], yamlDocs),
		"manifests":      manifests,
	}
	state := map[string]tftypes.Value{
		"template":      in.attrs["template"],
		"template_file": in.attrs["template_file"],
		"base_dir":      in.attrs["base_dir"],
		"context":       in.attrs["context"],
		"sensitive":     in.attrs["sensitive"],
	}
	sensitive := sensitiveOf(in.attrs)
	for _, name := range resultAttributes {
		shown, hidden := name, "sensitive_"+name
		if sensitive {
			shown, hidden = hidden, shown
		}
		state[shown] = results[name]
		state[hidden] = tftypes.NewValue(typ.AttributeTypes[hidden], nil)
	}
	if !sensitive {
		if secrets := secretDataDocuments(docs); len(secrets) > 0 {
			diags.Append(secretDataWarning(secrets))
		}
	}
	if err := tftypes.ValidateValue(typ, state); err != nil {
		return fail("Template rendering failed", err.Error())
	}
	return tftypes.NewValue(typ, state), diags
}
