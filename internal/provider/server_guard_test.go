package provider

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// The server answers celyaml_render's validation and reads, and the
// functions' calls, without the framework (server.go). It applies what the
// schemas and definitions use today: types, Optional/Required/Computed and
// AllowNullValue/AllowUnknownValues, which Terraform itself enforces, and
// descriptions, which only the schema the framework serves carries. The
// framework would also run validators, warn about deprecations, convert
// custom types and so on; the direct path would silently skip them.
// Write-only marks count too: nothing checks that the direct path treats
// their values as the framework does. Sensitive marks do not: Terraform
// applies them from the schema the framework serves, and the framework
// itself reads Sensitive only to write that schema (toproto), never when
// it reads a data source, so the direct path has nothing to do for them;
// the real-Terraform tests of the data source's sensitive_ attributes
// check that the plan hides them. The guard below walks
// the provider's real schemas and definitions and fails on anything else,
// field by field, so that a field a newer framework adds counts too.

// guardAdvice is what a guard failure asks for.
const guardAdvice = "the direct protocol path in server.go does not apply %s: either apply it there or route this call through the framework server"

// guardFeatures names the fields the direct path does not apply.
var guardFeatures = map[string]string{
	"Validators":         "validators",
	"DeprecationMessage": "deprecation messages",
	"PlanModifiers":      "plan modifiers",
	"Default":            "defaults",
	"WriteOnly":          "write-only marks",
	"CustomType":         "custom types",
	"Blocks":             "blocks",
}

// guardPassive are the fields the direct path has nothing to do for:
// Terraform enforces them, or only the served schema carries them.
var guardPassive = map[string]bool{
	"Name": true, "Summary": true, "Description": true, "MarkdownDescription": true,
	"Required": true, "Optional": true, "Computed": true,
	"AllowNullValue": true, "AllowUnknownValues": true, "Sensitive": true,
}

// basetypesPkg is the package of the framework's own types, which convert
// to and from protocol values without provider code.
var basetypesPkg = reflect.TypeOf(basetypes.StringType{}).PkgPath()

// guard collects what the direct path would miss.
type guard struct {
	problems []string
	visited  []string // every attribute and parameter walked
}

func (g *guard) report(where, feature string) {
	g.problems = append(g.problems, where+": "+fmt.Sprintf(guardAdvice, feature))
}

// fields checks every field of a schema, attribute, nested object or
// parameter: passive fields are fine, attributes and types are walked,
// anything else must be unset.
func (g *guard) fields(where string, v reflect.Value) {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		g.report(where, fmt.Sprintf("a %s (a schema part that is not a struct)", v.Type()))
		return
	}
	for i := 0; i < v.NumField(); i++ {
		name, f := v.Type().Field(i).Name, v.Field(i)
		switch {
		case guardPassive[name]:
		case name == "Attributes":
			g.attributes(where, f.Interface().(map[string]schema.Attribute))
		case name == "NestedObject":
			g.fields(where+" nested object", f)
		case name == "ElementType":
			g.typ(where+" element type", f.Interface().(attr.Type))
		case name == "ElementTypes":
			for j, t := range f.Interface().([]attr.Type) {
				g.typ(fmt.Sprintf("%s element type %d", where, j), t)
			}
		case name == "AttributeTypes":
			for _, k := range sortedKeys(f.Interface().(map[string]attr.Type)) {
				g.typ(where+" attribute type "+k, f.Interface().(map[string]attr.Type)[k])
			}
		case isUnset(f):
		default:
			feature, ok := guardFeatures[name]
			if !ok {
				feature = "the framework field " + name
			}
			g.report(where+" sets "+name, feature)
		}
	}
}

// isUnset reports whether a field is its zero value or an empty list or
// map.
func isUnset(f reflect.Value) bool {
	switch f.Kind() {
	case reflect.Slice, reflect.Map:
		return f.Len() == 0
	}
	return f.IsZero()
}

func (g *guard) attributes(where string, attrs map[string]schema.Attribute) {
	for _, name := range sortedKeys(attrs) {
		at := where + " attribute " + name
		g.visited = append(g.visited, at)
		g.fields(at, reflect.ValueOf(attrs[name]))
	}
}

// typ checks that a type is one of the framework's own, at every depth.
func (g *guard) typ(where string, t attr.Type) {
	if t == nil {
		return
	}
	if reflect.TypeOf(t).PkgPath() != basetypesPkg {
		g.report(fmt.Sprintf("%s is %T", where, t), "custom types")
		return
	}
	switch tt := t.(type) {
	case attr.TypeWithElementType:
		g.typ(where+" element type", tt.ElementType())
	case attr.TypeWithElementTypes:
		for j, et := range tt.ElementTypes() {
			g.typ(fmt.Sprintf("%s element type %d", where, j), et)
		}
	case attr.TypeWithAttributeTypes:
		for _, k := range sortedKeys(tt.AttributeTypes()) {
			g.typ(where+" attribute type "+k, tt.AttributeTypes()[k])
		}
	}
}

// provider checks what the provider adds to every call.
func (g *guard) provider(ctx context.Context, p provider.Provider) {
	if _, ok := p.(provider.ProviderWithMetaSchema); ok {
		g.report("the provider has a provider_meta schema", "provider_meta")
	}
	var resp provider.ConfigureResponse
	p.Configure(ctx, provider.ConfigureRequest{}, &resp)
	if resp.Deferred != nil {
		g.report("the provider's Configure defers", "deferred responses")
	}
	if resp.DataSourceData != nil {
		g.report("the provider's Configure sets DataSourceData", "provider data for data sources")
	}
}

// dataSource checks a data source: what it implements and its schema.
func (g *guard) dataSource(ctx context.Context, ds datasource.DataSource) {
	var meta datasource.MetadataResponse
	ds.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "celyaml"}, &meta)
	where := "data source " + meta.TypeName
	if _, ok := ds.(datasource.DataSourceWithConfigure); ok {
		g.report(where+" implements Configure", "data source Configure")
	}
	if _, ok := ds.(datasource.DataSourceWithConfigValidators); ok {
		g.report(where+" implements ConfigValidators", "config validators")
	}
	var resp datasource.SchemaResponse
	ds.Schema(ctx, datasource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		g.report(where+" schema has errors", "schema errors")
		return
	}
	if diags := resp.Schema.ValidateImplementation(ctx); diags.HasError() {
		g.report(fmt.Sprintf("%s schema is invalid: %v", where, diags), "schema validation")
	}
	g.fields(where+" schema", reflect.ValueOf(resp.Schema))
}

// function checks a function's definition: every parameter, the variadic
// one and the return, which the direct path always encodes as dynamic.
func (g *guard) function(ctx context.Context, fn function.Function) {
	var meta function.MetadataResponse
	fn.Metadata(ctx, function.MetadataRequest{}, &meta)
	where := "function " + meta.Name
	var resp function.DefinitionResponse
	fn.Definition(ctx, function.DefinitionRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		g.report(where+" definition has errors", "definition errors")
		return
	}
	def := resp.Definition
	var vresp function.DefinitionValidateResponse
	def.ValidateImplementation(ctx, function.DefinitionValidateRequest{FuncName: meta.Name}, &vresp)
	if vresp.Diagnostics.HasError() {
		g.report(fmt.Sprintf("%s definition is invalid: %v", where, vresp.Diagnostics), "definition validation")
	}
	if def.DeprecationMessage != "" {
		g.report(where+" sets DeprecationMessage", guardFeatures["DeprecationMessage"])
	}
	for i, p := range def.Parameters {
		at := fmt.Sprintf("%s parameter %d (%s)", where, i, p.GetName())
		g.visited = append(g.visited, at)
		g.fields(at, reflect.ValueOf(p))
	}
	if def.VariadicParameter != nil {
		at := fmt.Sprintf("%s variadic parameter (%s)", where, def.VariadicParameter.GetName())
		g.visited = append(g.visited, at)
		g.fields(at, reflect.ValueOf(def.VariadicParameter))
	}
	if _, ok := def.Return.(function.DynamicReturn); !ok {
		g.report(fmt.Sprintf("%s returns %T", where, def.Return), "return types other than dynamic")
		return
	}
	g.fields(where+" return", reflect.ValueOf(def.Return))
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// guardProvider walks the provider, all its data sources, and the
// functions the direct path answers (answeredDirectly); the framework
// answers the others with their whole definition.
func guardProvider(ctx context.Context, p provider.ProviderWithFunctions) *guard {
	g := &guard{}
	g.provider(ctx, p)
	for _, newDataSource := range p.DataSources(ctx) {
		g.dataSource(ctx, newDataSource())
	}
	for _, newFunction := range p.Functions(ctx) {
		if fn := newFunction(); answeredDirectly(ctx, fn) {
			g.function(ctx, fn)
		}
	}
	return g
}

// The provider's schemas and definitions use only what the direct path in
// server.go applies. When this fails, the message names the attribute or
// parameter and the feature.
func TestServer_directPathAppliesEverySchemaFeature(t *testing.T) {
	g := guardProvider(context.Background(), New("test")().(provider.ProviderWithFunctions))
	if len(g.problems) > 0 {
		t.Fatalf("%d problems:\n%s", len(g.problems), strings.Join(g.problems, "\n"))
	}
	want := []string{
		"data source celyaml_render schema attribute base_dir",
		"data source celyaml_render schema attribute context",
		"data source celyaml_render schema attribute documents",
		"data source celyaml_render schema attribute json",
		"data source celyaml_render schema attribute manifests",
		"data source celyaml_render schema attribute result",
		"data source celyaml_render schema attribute sensitive",
		"data source celyaml_render schema attribute sensitive_documents",
		"data source celyaml_render schema attribute sensitive_json",
		"data source celyaml_render schema attribute sensitive_manifests",
		"data source celyaml_render schema attribute sensitive_result",
		"data source celyaml_render schema attribute sensitive_yaml",
		"data source celyaml_render schema attribute sensitive_yaml_documents",
		"data source celyaml_render schema attribute template",
		"data source celyaml_render schema attribute template_file",
		"data source celyaml_render schema attribute yaml",
		"data source celyaml_render schema attribute yaml_documents",
		"function render parameter 0 (template)",
		"function render parameter 1 (context)",
		"function render_file parameter 0 (path)",
		"function render_file parameter 1 (context)",
		"function eval parameter 0 (expression)",
		"function eval parameter 1 (context)",
		"function manifests parameter 0 (documents)",
		"function validate parameter 0 (documents)",
		"function validate parameter 1 (schemas)",
	}
	if got := strings.Join(g.visited, "\n"); got != strings.Join(want, "\n") {
		t.Fatalf("walked:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// guardDataSource and guardFunction carry a schema and a definition for
// the guard's own test.
type guardDataSource struct{ schema schema.Schema }

func (d guardDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = "celyaml_guard"
}

func (d guardDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = d.schema
}

func (d guardDataSource) Read(context.Context, datasource.ReadRequest, *datasource.ReadResponse) {}

type guardFunction struct{ def function.Definition }

func (f guardFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "guard"
}

func (f guardFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = f.def
}

func (f guardFunction) Run(context.Context, function.RunRequest, *function.RunResponse) {}

// guardValidator is a validator that accepts everything.
type guardValidator struct{}

func (guardValidator) Description(context.Context) string         { return "" }
func (guardValidator) MarkdownDescription(context.Context) string { return "" }
func (guardValidator) ValidateString(context.Context, validator.StringRequest, *validator.StringResponse) {
}
func (guardValidator) ValidateParameterString(context.Context, function.StringParameterValidatorRequest, *function.StringParameterValidatorResponse) {
}

// guardStringType is a custom string type.
type guardStringType struct{ basetypes.StringType }

// The guard reports each feature the direct path does not apply, wherever
// it sits: on an attribute, inside a nested attribute or an element type,
// on a parameter, the variadic one or the return.
func TestServer_guardReportsEachFeature(t *testing.T) {
	ctx := context.Background()
	advice := func(feature string) string { return fmt.Sprintf(guardAdvice, feature) }
	dsCases := map[string]struct {
		attr schema.Attribute
		want string
	}{
		"validator":                         {schema.StringAttribute{Optional: true, Validators: []validator.String{guardValidator{}}}, "data source celyaml_guard schema attribute a sets Validators: " + advice("validators")},
		"deprecation":                       {schema.StringAttribute{Optional: true, DeprecationMessage: "old"}, "data source celyaml_guard schema attribute a sets DeprecationMessage: " + advice("deprecation messages")},
		"sensitive is Terraform's to apply": {schema.StringAttribute{Computed: true, Sensitive: true}, ""},
		"custom type":                       {schema.StringAttribute{Optional: true, CustomType: guardStringType{}}, "data source celyaml_guard schema attribute a sets CustomType: " + advice("custom types")},
		"custom element type": {schema.ListAttribute{Computed: true, ElementType: types.ListType{ElemType: guardStringType{}}},
			"data source celyaml_guard schema attribute a element type element type is provider.guardStringType: " + advice("custom types")},
		"nested validator": {schema.ListNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"b": schema.StringAttribute{Optional: true, Validators: []validator.String{guardValidator{}}},
		}}}, "data source celyaml_guard schema attribute a nested object attribute b sets Validators: " + advice("validators")},
	}
	for name, c := range dsCases {
		g := &guard{}
		g.dataSource(ctx, guardDataSource{schema.Schema{Attributes: map[string]schema.Attribute{"a": c.attr}}})
		if got := strings.Join(g.problems, "\n"); got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", name, got, c.want)
		}
	}
	fnCases := map[string]struct {
		def  function.Definition
		want string
	}{
		"parameter validator": {function.Definition{Parameters: []function.Parameter{function.StringParameter{Name: "p", Validators: []function.StringParameterValidator{guardValidator{}}}}, Return: function.DynamicReturn{}},
			"function guard parameter 0 (p) sets Validators: " + advice("validators")},
		"variadic custom type": {function.Definition{VariadicParameter: function.StringParameter{Name: "v", CustomType: guardStringType{}}, Return: function.DynamicReturn{}},
			"function guard variadic parameter (v) sets CustomType: " + advice("custom types")},
		"deprecation": {function.Definition{DeprecationMessage: "old", Return: function.DynamicReturn{}},
			"function guard sets DeprecationMessage: " + advice("deprecation messages")},
		"string return": {function.Definition{Return: function.StringReturn{}},
			"function guard returns function.StringReturn: " + advice("return types other than dynamic")},
	}
	for name, c := range fnCases {
		g := &guard{}
		g.function(ctx, guardFunction{c.def})
		if got := strings.Join(g.problems, "\n"); got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", name, got, c.want)
		}
	}
}
