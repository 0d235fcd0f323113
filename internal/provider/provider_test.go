package provider

import (
	"context"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// sharedEngine is the engine the unit tests render with.
var sharedEngine = sync.OnceValue(func() *engine.Engine { return engine.New(engine.DefaultOptions()) })

func testEngine(context.Context) *engine.Engine { return sharedEngine() }

// noEngine fails the test if a function reaches the engine when it should
// have answered on its own (unknown or invalid arguments).
func noEngine(t *testing.T) func(context.Context) *engine.Engine {
	return func(context.Context) *engine.Engine {
		t.Helper()
		t.Fatal("the engine was used")
		return nil
	}
}

// unset is the result before a function runs, so that a test notices a
// function that sets nothing.
var unset = types.DynamicValue(types.StringValue("<result not set>"))

// callFunction runs a function the way the framework does and returns its
// result and error.
func callFunction(t *testing.T, f function.Function, args ...attr.Value) (attr.Value, *function.FuncError) {
	t.Helper()
	resp := function.RunResponse{Result: function.NewResultData(unset)}
	f.Run(context.Background(), function.RunRequest{Arguments: function.NewArgumentsData(args)}, &resp)
	v := resp.Result.Value()
	if resp.Error == nil && v.Equal(unset) {
		t.Fatal("the function set no result and no error")
	}
	return v, resp.Error
}

// callOK runs a function that must succeed and dumps its result.
func callOK(t *testing.T, f function.Function, args ...attr.Value) string {
	t.Helper()
	v, ferr := callFunction(t, f, args...)
	if ferr != nil {
		t.Fatalf("function error: %s", ferr.Text)
	}
	d, ok := v.(types.Dynamic)
	if !ok {
		t.Fatalf("the result is a %T, not a dynamic value", v)
	}
	if d.IsUnknown() || d.IsNull() {
		return dumpTerraform(d)
	}
	return dumpTerraform(d.UnderlyingValue())
}

// vars builds a context object from alternating names and engine values;
// value.Unknown{} makes an unknown leaf.
func vars(t *testing.T, kv ...any) types.Dynamic {
	t.Helper()
	m := value.NewMap(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		v := kv[i+1]
		if n, ok := v.(int); ok {
			v = int64(n)
		}
		m.Set(kv[i].(string), v)
	}
	return types.DynamicValue(mustFromEngine(t, m))
}

func TestProvider_metadataAndNoConfiguration(t *testing.T) {
	p := New("1.2.3")()
	var md provider.MetadataResponse
	p.Metadata(context.Background(), provider.MetadataRequest{}, &md)
	if md.TypeName != "celyaml" || md.Version != "1.2.3" {
		t.Fatalf("got %q %q", md.TypeName, md.Version)
	}
	var sr provider.SchemaResponse
	p.Schema(context.Background(), provider.SchemaRequest{}, &sr)
	if len(sr.Schema.Attributes) != 0 || len(sr.Schema.Blocks) != 0 || sr.Schema.MarkdownDescription == "" {
		t.Fatalf("provider schema: %d attributes, %d blocks", len(sr.Schema.Attributes), len(sr.Schema.Blocks))
	}
}

func TestProvider_registersTheDataSourceAndFunctions(t *testing.T) {
	p := New("test")().(*celyamlProvider)
	ctx := context.Background()
	var names []string
	for _, f := range p.Functions(ctx) {
		var md function.MetadataResponse
		f().Metadata(ctx, function.MetadataRequest{}, &md)
		names = append(names, md.Name)
	}
	sort.Strings(names)
	if got := strings.Join(names, " "); got != "deep_merge eval manifests render render_file to_yaml validate" {
		t.Fatalf("functions: %s", got)
	}
	dss := p.DataSources(ctx)
	if len(dss) != 1 {
		t.Fatalf("%d data sources", len(dss))
	}
	var md datasource.MetadataResponse
	dss[0]().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "celyaml"}, &md)
	if md.TypeName != "celyaml_render" {
		t.Fatalf("data source: %s", md.TypeName)
	}
	if len(p.Resources(ctx)) != 0 {
		t.Fatal("the provider has no resources")
	}
}

// Terraform starts the provider for every command and asks for its schema
// first: that must not build the engine.
func TestProvider_schemaDoesNotBuildTheEngine(t *testing.T) {
	srv := NewServer("test")().(*server)
	p := srv.provider
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Errorf("diagnostic: %s: %s", d.Summary, d.Detail)
	}
	if p.eng != nil {
		t.Fatal("the schema request built the engine")
	}
	// Terraform's validation launch only validates: that must not build it
	// either.
	cfg, err := tfprotov6.NewDynamicValue(renderStateType(), dsConfig(t, map[string]tftypes.Value{"template": str("a: 1\n")}).Raw)
	if err != nil {
		t.Fatal(err)
	}
	vresp, err := srv.ValidateDataResourceConfig(context.Background(), &tfprotov6.ValidateDataResourceConfigRequest{TypeName: renderTypeName, Config: &cfg})
	if err != nil || len(vresp.Diagnostics) != 0 {
		t.Fatalf("validate: %v %v", err, vresp.Diagnostics)
	}
	if p.eng != nil {
		t.Fatal("validation built the engine")
	}
	var fns []string
	for name := range resp.Functions {
		fns = append(fns, name)
	}
	sort.Strings(fns)
	if got := strings.Join(fns, " "); got != "deep_merge eval manifests render render_file to_yaml validate" {
		t.Fatalf("functions: %s", got)
	}
	ds := resp.DataSourceSchemas["celyaml_render"]
	if ds == nil {
		t.Fatal("no celyaml_render schema")
	}
	var attrs []string
	for _, a := range ds.Block.Attributes {
		kind := "optional"
		if a.Computed {
			kind = "computed"
		}
		if a.Sensitive {
			// Terraform marks these from the schema served here.
			kind += ",sensitive"
		}
		attrs = append(attrs, a.Name+":"+kind)
	}
	sort.Strings(attrs)
	want := "base_dir:optional context:optional documents:computed json:computed manifests:computed result:computed " +
		"sensitive:optional sensitive_documents:computed,sensitive sensitive_json:computed,sensitive " +
		"sensitive_manifests:computed,sensitive sensitive_result:computed,sensitive sensitive_yaml:computed,sensitive " +
		"sensitive_yaml_documents:computed,sensitive " +
		"template:optional template_file:optional yaml:computed yaml_documents:computed"
	if got := strings.Join(attrs, " "); got != want {
		t.Fatalf("attributes:\n got %s\nwant %s", got, want)
	}
}

func TestProvider_functionSignatures(t *testing.T) {
	srv := NewServer("test")()
	resp, err := srv.GetFunctions(context.Background(), &tfprotov6.GetFunctionsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Errorf("diagnostic: %s: %s", d.Summary, d.Detail)
	}
	var got []string
	for _, name := range []string{"render", "render_file", "eval", "manifests"} {
		f := resp.Functions[name]
		if f == nil {
			t.Fatalf("no function %s", name)
		}
		if f.Summary == "" || f.Description == "" {
			t.Errorf("%s: missing summary or description", name)
		}
		var ps []string
		for _, p := range f.Parameters {
			s := p.Name + " " + p.Type.String()
			if p.AllowNullValue {
				s += " null"
			}
			if p.AllowUnknownValues {
				s += " unknown"
			}
			ps = append(ps, s)
		}
		got = append(got, name+"("+strings.Join(ps, ", ")+") "+f.Return.Type.String())
	}
	want := []string{
		"render(template tftypes.String unknown, context tftypes.DynamicPseudoType null unknown) tftypes.DynamicPseudoType",
		"render_file(path tftypes.String unknown, context tftypes.DynamicPseudoType null unknown) tftypes.DynamicPseudoType",
		"eval(expression tftypes.String unknown, context tftypes.DynamicPseudoType null unknown) tftypes.DynamicPseudoType",
		"manifests(documents tftypes.DynamicPseudoType null unknown) tftypes.DynamicPseudoType",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestProvider_engineIsSharedAndBuiltOnce(t *testing.T) {
	p := New("test")().(*celyamlProvider)
	if p.eng != nil {
		t.Fatal("built at launch")
	}
	var wg sync.WaitGroup
	got := make([]*engine.Engine, 16)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = p.engine(context.Background())
		}()
	}
	wg.Wait()
	for i, e := range got {
		if e == nil || e != got[0] {
			t.Fatalf("call %d got a different engine", i)
		}
	}
}
