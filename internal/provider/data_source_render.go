package provider

import (
	"context"
	"errors"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

var (
	_ datasource.DataSource                   = &renderDataSource{}
	_ datasource.DataSourceWithValidateConfig = &renderDataSource{}
)

// renderDataSource is the celyaml_render data source.
type renderDataSource struct {
	engine func(context.Context) *engine.Engine
}

// renderModel is the data source's schema data.
type renderModel struct {
	Template      types.String  `tfsdk:"template"`
	TemplateFile  types.String  `tfsdk:"template_file"`
	BaseDir       types.String  `tfsdk:"base_dir"`
	Context       types.Dynamic `tfsdk:"context"`
	YAML          types.String  `tfsdk:"yaml"`
	JSON          types.String  `tfsdk:"json"`
	Result        types.Dynamic `tfsdk:"result"`
	Documents     types.Dynamic `tfsdk:"documents"`
	YAMLDocuments types.List    `tfsdk:"yaml_documents"`
	Manifests     types.Dynamic `tfsdk:"manifests"`
}

func (d *renderDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_render"
}

func (d *renderDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Renders a CEL-YAML template, inline or from a file, with the variables in " +
			"`context`, and exposes the result as YAML, JSON, Terraform values and a map of Kubernetes " +
			"manifests keyed for `for_each`.\n\n" +
			"**When it runs.** Terraform reads a data source during `plan` when its configuration is " +
			"wholly known. If `context` (or any other argument) holds a value that is unknown until " +
			"apply, such as the ID of a resource not created yet, Terraform defers the whole read to " +
			"apply and every attribute is unknown during plan, so `for_each` over `manifests` fails. " +
			"For results during plan, use the functions `provider::celyaml::render_file`, `render` and " +
			"`manifests`: they render what is known and keep only the parts that depend on unknown " +
			"values unknown.\n\n" +
			"**Files.** Like `file()` and `templatefile()`, the data source can read any file Terraform " +
			"can read.\n\n" +
			"**Secrets.** Terraform does not mark a data source's results sensitive when its arguments " +
			"are: mark outputs that use them `sensitive = true`, or use the functions, whose results " +
			"carry the sensitivity of their arguments. Error messages never show variable values.",
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
					"`manifests` is not read. Use it as `for_each = data.celyaml_render.x.manifests`.",
			},
		},
	}
}

// ValidateConfig checks that exactly one of template and template_file is
// set (an unknown value counts as set), and warns about a base_dir that
// template_file ignores.
func (d *renderDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var tmpl, file, baseDir types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("template"), &tmpl)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("template_file"), &file)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("base_dir"), &baseDir)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !baseDir.IsNull() && !file.IsNull() && tmpl.IsNull() {
		resp.Diagnostics.AddAttributeWarning(path.Root("base_dir"),
			"base_dir has no effect with template_file",
			"$include in a template file resolves against the file's own directory; base_dir applies only to an inline \"template\". Remove base_dir.")
	}
	switch {
	case tmpl.IsNull() && file.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("template"),
			"Missing template",
			"Set exactly one of \"template\" (inline template text) and \"template_file\" (path to a template file); neither is set.")
	case !tmpl.IsNull() && !file.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("template_file"),
			"Conflicting template arguments",
			"Set exactly one of \"template\" (inline template text) and \"template_file\" (path to a template file); both are set.")
	}
}

func (d *renderDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m renderModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}

	at := path.Root("template")
	if !m.TemplateFile.IsNull() {
		at = path.Root("template_file")
	}
	vars, unknown, err := contextVars(ctx, m.Context)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("context"), "Invalid context", err.Error())
		return
	}
	if unknown {
		resp.Diagnostics.AddAttributeError(path.Root("context"), "Invalid context",
			"The context is unknown. Terraform reads a data source only when its configuration is known; this is a bug in the provider or in Terraform.")
		return
	}

	eng := d.engine(ctx)
	var docs []engine.Value
	if !m.TemplateFile.IsNull() {
		tflog.Debug(ctx, "celyaml_render: rendering file", map[string]any{"template_file": m.TemplateFile.ValueString(), "variables": len(vars)})
		docs, err = eng.RenderFile(ctx, m.TemplateFile.ValueString(), vars)
	} else {
		tflog.Debug(ctx, "celyaml_render: rendering inline template", map[string]any{"template_bytes": len(m.Template.ValueString()), "variables": len(vars)})
		docs, err = eng.Render(ctx, engine.Source{Text: []byte(m.Template.ValueString()), BaseDir: m.BaseDir.ValueString()}, vars)
	}
	if err != nil {
		tflog.Debug(ctx, "celyaml_render: rendering failed")
		resp.Diagnostics.AddAttributeError(at, "Template rendering failed", err.Error())
		return
	}
	if engine.IsUnknownStream(docs) || containsUnknown(docs) {
		resp.Diagnostics.AddAttributeError(at, "Template rendering failed",
			"The rendered documents hold unknown values, which a data source cannot return. This is a bug in the provider.")
		return
	}

	// Each document is encoded and converted once; result, documents and
	// manifests share the converted values.
	yamlDocs := make([]attr.Value, len(docs))
	var stream strings.Builder
	var buf []byte
	for i, doc := range docs {
		buf, err = engine.AppendYAML(buf[:0], doc)
		if err != nil {
			resp.Diagnostics.AddAttributeError(at, "Template rendering failed", err.Error())
			return
		}
		if i > 0 {
			stream.WriteString("---\n")
		}
		stream.Write(buf)
		yamlDocs[i] = types.StringValue(string(buf))
	}
	var jsonDoc engine.Value = docs
	if len(docs) == 0 {
		jsonDoc = []engine.Value{}
	} else if len(docs) == 1 {
		jsonDoc = docs[0]
	}
	js, err := engine.AppendJSON(nil, jsonDoc, false)
	if err != nil {
		resp.Diagnostics.AddAttributeError(at, "Template rendering failed", err.Error())
		return
	}
	vals, _, err := documentsToTerraform(docs)
	if err != nil {
		resp.Diagnostics.AddAttributeError(at, "Template rendering failed", err.Error())
		return
	}
	result, err := resultOf(vals)
	if err != nil {
		resp.Diagnostics.AddAttributeError(at, "Template rendering failed", err.Error())
		return
	}
	documents, err := tupleOf(vals)
	if err != nil {
		resp.Diagnostics.AddAttributeError(at, "Template rendering failed", err.Error())
		return
	}
	manifests, err := buildManifests(ctx, vals)
	if err != nil {
		summary := "Invalid manifest"
		var dup *duplicateManifestError
		if errors.As(err, &dup) {
			summary = "Duplicate manifest ID"
		}
		resp.Diagnostics.AddAttributeError(at, summary, err.Error())
		return
	}
	list, diags := types.ListValue(types.StringType, yamlDocs)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}

	m.YAML = types.StringValue(stream.String())
	m.JSON = types.StringValue(string(js))
	m.Result = toDynamic(result)
	m.Documents = toDynamic(documents)
	m.YAMLDocuments = list
	m.Manifests = toDynamic(manifests)
	tflog.Debug(ctx, "celyaml_render: rendered", map[string]any{"documents": len(docs), "yaml_bytes": stream.Len()})
	// Build the state value directly: State.Set walks the model by
	// reflection, which costs more than the render itself.
	if raw, err := m.terraformValue(ctx, resp.State.Schema.Type().TerraformType(ctx)); err == nil {
		resp.State.Raw = raw
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// terraformValue builds the model's state value for the schema's type.
func (m *renderModel) terraformValue(ctx context.Context, typ tftypes.Type) (tftypes.Value, error) {
	attrs := map[string]attr.Value{
		"template":       m.Template,
		"template_file":  m.TemplateFile,
		"base_dir":       m.BaseDir,
		"context":        m.Context,
		"yaml":           m.YAML,
		"json":           m.JSON,
		"result":         m.Result,
		"documents":      m.Documents,
		"yaml_documents": m.YAMLDocuments,
		"manifests":      m.Manifests,
	}
	vals := make(map[string]tftypes.Value, len(attrs))
	for name, v := range attrs {
		tv, err := v.ToTerraformValue(ctx)
		if err != nil {
			return tftypes.Value{}, err
		}
		vals[name] = tv
	}
	if err := tftypes.ValidateValue(typ, vals); err != nil {
		return tftypes.Value{}, err
	}
	return tftypes.NewValue(typ, vals), nil
}
