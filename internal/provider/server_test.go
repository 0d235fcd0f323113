package provider

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// serverCases are celyaml_render configurations that cover every outcome
// of validation and reading: each attribute, every kind of context value,
// zero, one and several documents, includes, warnings and each error.
func serverCases(t *testing.T) map[string]map[string]tftypes.Value {
	t.Helper()
	list := func(vs ...tftypes.Value) tftypes.Value {
		return tftypes.NewValue(tftypes.List{ElementType: vs[0].Type()}, vs)
	}
	num := func(s string) tftypes.Value {
		f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		return tftypes.NewValue(tftypes.Number, f)
	}
	everyKind := ctxObject(map[string]tftypes.Value{
		"s":     str("text"),
		"i":     num("42"),
		"big":   num("9007199254740993"),
		"f":     num("1.5"),
		"b":     tftypes.NewValue(tftypes.Bool, true),
		"null":  tftypes.NewValue(tftypes.String, nil),
		"list":  list(str("a"), str("b")),
		"set":   tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{str("y"), str("x")}),
		"map":   tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"k": str("v")}),
		"tuple": tftypes.NewValue(tftypes.Tuple{ElementTypes: []tftypes.Type{tftypes.String, tftypes.Number}}, []tftypes.Value{str("t"), num("7")}),
		"obj":   ctxObject(map[string]tftypes.Value{"nested": list(num("1"), num("2"))}),
	})
	return map[string]map[string]tftypes.Value{
		"multi-document with manifests": {
			"template": str("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name:\n    $eval: \"${{ s }}\"\n  namespace: prod\n" +
				"spec:\n  all:\n    $eval: \"${{ [i, big, f, b, null, list, set, map, tuple, obj] }}\"\n---\n" +
				"kind: Service\nmetadata:\n  name: cart\n---\nnote: not a manifest\n"),
			"context": everyKind,
		},
		"single document":       {"template": str("b: 2\na: [1, x]\n")},
		"zero documents":        {"template": str("$if: \"false\"\n$then: {a: 1}\n")},
		"empty template":        {"template": str("")},
		"null context":          {"template": str("a: 1\n"), "context": tftypes.NewValue(tftypes.DynamicPseudoType, nil)},
		"map context":           {"template": str("a:\n  $eval: \"${{ k }}\"\n"), "context": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"k": str("v")})},
		"template file":         {"template_file": str("testdata/files/app.yaml"), "context": ctxObject(map[string]tftypes.Value{"name": str("cart"), "env": str("prod"), "image": str("nginx:1.27")})},
		"base_dir":              {"template": str("labels:\n  $include: parts/labels.yaml\n"), "base_dir": str("testdata/files"), "context": ctxObject(map[string]tftypes.Value{"name": str("web")})},
		"unused base_dir":       {"template_file": str("testdata/files/static.yaml"), "base_dir": str("testdata/files")},
		"render error":          {"template": str("kind: x\nsum:\n  $eval: \"${{ 1 + 1.0 }}\"\n")},
		"file error":            {"template_file": str("testdata/files/broken.yaml")},
		"missing file":          {"template_file": str("testdata/files/nothing-here.yaml")},
		"duplicate id":          {"template": str("kind: A\nmetadata: {name: x}\n---\nkind: A\nmetadata: {name: x}\n")},
		"invalid manifest":      {"template": str("kind: A\nmetadata: {name: [x]}\n")},
		"context not an object": {"template": str("a: 1\n"), "context": str("x")},
		"neither template":      {},
		"both templates":        {"template": str("a: 1\n"), "template_file": str("testdata/files/static.yaml")},
	}
}

// callServerRaw calls a function through a server as Terraform does, with
// each argument of its parameter's type (a string first for render,
// render_file and eval; dynamic otherwise), and gives the response.
func callServerRaw(t *testing.T, srv tfprotov6.ProviderServer, name string, args ...tftypes.Value) *tfprotov6.CallFunctionResponse {
	t.Helper()
	var dvs []*tfprotov6.DynamicValue
	for i, a := range args {
		typ := tftypes.Type(tftypes.DynamicPseudoType)
		if i == 0 && (name == "render" || name == "render_file" || name == "eval") {
			typ = tftypes.String
		}
		dv, err := tfprotov6.NewDynamicValue(typ, a)
		if err != nil {
			t.Fatal(err)
		}
		dvs = append(dvs, &dv)
	}
	resp, err := srv.CallFunction(context.Background(), &tfprotov6.CallFunctionRequest{Name: name, Arguments: dvs})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// callServer validates and reads one configuration and describes the
// answers: diagnostics with their attribute paths, and the state.
func callServer(t *testing.T, srv tfprotov6.ProviderServer, vals map[string]tftypes.Value, readToo bool) string {
	t.Helper()
	ctx := context.Background()
	typ := renderStateType()
	cfg, err := tfprotov6.NewDynamicValue(typ, dsConfig(t, vals).Raw)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	diags := func(ds []*tfprotov6.Diagnostic) {
		for _, d := range ds {
			fmt.Fprintf(&b, "  %s %q %q at %v\n", d.Severity, d.Summary, d.Detail, d.Attribute)
		}
	}
	vresp, err := srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: renderTypeName, Config: &cfg})
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString("validate:\n")
	diags(vresp.Diagnostics)
	if !readToo {
		return b.String()
	}
	rresp, err := srv.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: renderTypeName, Config: &cfg})
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString("read:\n")
	diags(rresp.Diagnostics)
	if rresp.State == nil {
		b.WriteString("  no state\n")
	} else {
		state, err := rresp.State.Unmarshal(typ)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "  state %s\n", state)
	}
	if rresp.Deferred != nil {
		fmt.Fprintf(&b, "  deferred %v\n", rresp.Deferred.Reason)
	}
	return b.String()
}

// The server answers celyaml_render's validation and reads itself
// (server.go); its answers must be exactly the framework's: the same
// diagnostics with the same attribute paths, and the same state.
func TestServer_renderAnswersAsTheFrameworkDoes(t *testing.T) {
	framework := providerserver.NewProtocol6(New("test")())()
	direct := NewServer("test")()
	for _, srv := range []tfprotov6.ProviderServer{framework, direct} {
		if _, err := srv.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{}); err != nil {
			t.Fatal(err)
		}
	}
	for name, vals := range serverCases(t) {
		t.Run(name, func(t *testing.T) {
			want := callServer(t, framework, vals, true)
			got := callServer(t, direct, vals, true)
			if got != want {
				t.Fatalf("the server and the framework differ\nserver:\n%s\nframework:\n%s", got, want)
			}
			if !strings.Contains(got, "state") {
				t.Fatalf("no state:\n%s", got)
			}
		})
	}
}

// Validation sees unknown values: an unknown template_file counts as set.
func TestServer_validateWithUnknownValues(t *testing.T) {
	framework := providerserver.NewProtocol6(New("test")())()
	direct := NewServer("test")()
	unknown := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	for name, vals := range map[string]map[string]tftypes.Value{
		"unknown file":            {"template_file": unknown},
		"unknown file and inline": {"template_file": unknown, "template": str("a: 1\n")},
		"unknown context":         {"template": str("a: 1\n"), "context": tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue)},
	} {
		want := callServer(t, framework, vals, false)
		if got := callServer(t, direct, vals, false); got != want {
			t.Errorf("%s: the server and the framework differ\nserver:\n%s\nframework:\n%s", name, got, want)
		}
	}
	if got := callServer(t, direct, map[string]tftypes.Value{"template_file": unknown, "template": str("a: 1\n")}, false); !strings.Contains(got, `"Conflicting template arguments"`) ||
		!strings.Contains(got, "template_file") {
		t.Fatalf("got %s", got)
	}
}

// Every other call goes to the framework unchanged.
func TestServer_otherCallsGoToTheFramework(t *testing.T) {
	srv := NewServer("test")()
	resp, err := srv.ReadDataSource(context.Background(), &tfprotov6.ReadDataSourceRequest{TypeName: "celyaml_nothing"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Summary != "Data Source Type Not Found" {
		t.Fatalf("got %+v", resp.Diagnostics)
	}
	schema, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if schema.DataSourceSchemas[renderTypeName] == nil || len(schema.Functions) != 7 {
		t.Fatalf("schema: %d data sources, %d functions", len(schema.DataSourceSchemas), len(schema.Functions))
	}
}

// callServerFunction calls a function through a server and describes the
// answer: the error with its argument, and the result.
func callServerFunction(t *testing.T, srv tfprotov6.ProviderServer, name string, args ...tftypes.Value) string {
	t.Helper()
	resp := callServerRaw(t, srv, name, args...)
	var b strings.Builder
	if resp.Error != nil {
		arg := "-"
		if resp.Error.FunctionArgument != nil {
			arg = fmt.Sprint(*resp.Error.FunctionArgument)
		}
		fmt.Fprintf(&b, "error (argument %s): %q\n", arg, resp.Error.Text)
	}
	if resp.Result == nil {
		b.WriteString("no result\n")
	} else {
		v, err := resp.Result.Unmarshal(tftypes.DynamicPseudoType)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "result %s\n", v)
	}
	return b.String()
}

// The server calls the functions itself (server.go); every answer must be
// exactly the framework's: results with their unknown and null leaves,
// and errors with the argument they point at.
func TestServer_functionsAnswerAsTheFrameworkDoes(t *testing.T) {
	framework := providerserver.NewProtocol6(New("test")())()
	direct := NewServer("test")()
	unknownStr := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	nullStr := tftypes.NewValue(tftypes.String, nil)
	vars := ctxObject(map[string]tftypes.Value{
		"name":  str("cart"),
		"n":     tftypes.NewValue(tftypes.Number, 3),
		"image": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"list":  tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str("a")}),
	})
	unknownObject := tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String}}, tftypes.UnknownValue)
	k8s := "kind: Deployment\nmetadata:\n  name:\n    $eval: \"${{ name }}\"\nspec:\n  image:\n    $eval: \"${{ image }}\"\n  n:\n    $eval: \"${{ n }}\"\n  none: null\n---\nkind: Service\nmetadata: {name: s}\n"
	docs := tftypes.NewValue(tftypes.Tuple{ElementTypes: []tftypes.Type{
		tftypes.Object{AttributeTypes: map[string]tftypes.Type{"kind": tftypes.String, "metadata": tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String}}}},
	}}, []tftypes.Value{tftypes.NewValue(
		tftypes.Object{AttributeTypes: map[string]tftypes.Type{"kind": tftypes.String, "metadata": tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String}}}},
		map[string]tftypes.Value{"kind": str("A"), "metadata": ctxObject(map[string]tftypes.Value{"name": str("a")})},
	)})
	cases := []struct {
		name, fn string
		args     []tftypes.Value
	}{
		{"render with unknown leaves", "render", []tftypes.Value{str(k8s), vars}},
		{"render one document", "render", []tftypes.Value{str("a: [1, {b: null}]\n"), dynamicNull}},
		{"render zero documents", "render", []tftypes.Value{str(""), dynamicNull}},
		{"render unknown template", "render", []tftypes.Value{unknownStr, vars}},
		{"render null template", "render", []tftypes.Value{nullStr, vars}},
		{"render unknown context", "render", []tftypes.Value{str("a: 1\n"), dynamicUnknown}},
		{"render unknown object context", "render", []tftypes.Value{str("a:\n  $eval: \"${{ name }}\"\n"), unknownObject}},
		{"render context not an object", "render", []tftypes.Value{str("a: 1\n"), str("x")}},
		{"render error", "render", []tftypes.Value{str("a:\n  $eval: \"${{ 1 + 'x' }}\"\n"), dynamicNull}},
		{"render unknown stream", "render", []tftypes.Value{str("$for: \"x in list\"\n$do: {a: 1}\n"), ctxObject(map[string]tftypes.Value{"list": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, tftypes.UnknownValue)})}},
		{"render_file", "render_file", []tftypes.Value{str("testdata/files/app.yaml"), ctxObject(map[string]tftypes.Value{"name": str("cart"), "env": str("prod"), "image": str("nginx:1.27")})}},
		{"render_file missing", "render_file", []tftypes.Value{str("testdata/files/nothing.yaml"), dynamicNull}},
		{"eval", "eval", []tftypes.Value{str("{'a': [n, name, list]}"), vars}},
		{"eval unknown", "eval", []tftypes.Value{str("image + name"), vars}},
		{"eval error", "eval", []tftypes.Value{str("n + name"), vars}},
		{"eval null expression", "eval", []tftypes.Value{nullStr, dynamicNull}},
		{"manifests", "manifests", []tftypes.Value{docs}},
		{"manifests null", "manifests", []tftypes.Value{dynamicNull}},
		{"manifests unknown", "manifests", []tftypes.Value{dynamicUnknown}},
		{"manifests not documents", "manifests", []tftypes.Value{str("x")}},
		{"wrong argument count", "eval", []tftypes.Value{str("1")}},
		{"deep_merge three layers and a null", "deep_merge", []tftypes.Value{
			ctxObject(map[string]tftypes.Value{"image": ctxObject(map[string]tftypes.Value{"repo": str("nginx"), "tag": str("1")}), "n": tftypes.NewValue(tftypes.Number, 1)}),
			dynamicNull,
			ctxObject(map[string]tftypes.Value{"image": ctxObject(map[string]tftypes.Value{"tag": str("2")})}),
			ctxObject(map[string]tftypes.Value{"n": dynamicNull, "image": ctxObject(map[string]tftypes.Value{"repo": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)})}),
		}},
		{"deep_merge of nothing", "deep_merge", nil},
		{"deep_merge of nulls", "deep_merge", []tftypes.Value{dynamicNull, dynamicNull}},
		{"deep_merge with an unknown argument", "deep_merge", []tftypes.Value{vars, dynamicUnknown}},
		{"deep_merge of one list", "deep_merge", []tftypes.Value{tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str("a")})}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := callServerFunction(t, framework, tc.fn, tc.args...)
			got := callServerFunction(t, direct, tc.fn, tc.args...)
			if got != want {
				t.Fatalf("the server and the framework differ\nserver:\n%s\nframework:\n%s", got, want)
			}
		})
	}
}

// The server answers celyaml_render with the data source the provider's
// DataSources builds, the one the framework serves, and not a copy of its
// own; when it found none, every answer above would be the framework's.
func TestServer_renderComesFromTheProvidersDataSources(t *testing.T) {
	srv := NewServer("test")().(*server)
	if srv.render == nil {
		t.Fatal("the server found no celyaml_render in the provider's DataSources; the framework answers its calls")
	}
	if srv.render.engine(context.Background()) != srv.provider.engine(context.Background()) {
		t.Fatal("the server's celyaml_render does not share the provider's engine")
	}
}
