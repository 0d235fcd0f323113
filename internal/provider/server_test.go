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
	if schema.DataSourceSchemas[renderTypeName] == nil || len(schema.Functions) != 4 {
		t.Fatalf("schema: %d data sources, %d functions", len(schema.DataSourceSchemas), len(schema.Functions))
	}
}
