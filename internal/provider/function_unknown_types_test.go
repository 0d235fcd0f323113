package provider

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// unknownLeaves lists every unknown in v with its Terraform type, one
// "path: type" line each, sorted.
func unknownLeaves(t *testing.T, v tftypes.Value) string {
	t.Helper()
	var lines []string
	var walk func(path string, v tftypes.Value)
	walk = func(path string, v tftypes.Value) {
		if !v.IsKnown() {
			lines = append(lines, path+": "+v.Type().String())
			return
		}
		if v.IsNull() {
			return
		}
		switch {
		case v.Type().Is(tftypes.Object{}), v.Type().Is(tftypes.Map{}):
			var attrs map[string]tftypes.Value
			if err := v.As(&attrs); err != nil {
				t.Fatal(err)
			}
			for k, e := range attrs {
				walk(strings.TrimPrefix(path+"."+k, "."), e)
			}
		case v.Type().Is(tftypes.Tuple{}), v.Type().Is(tftypes.List{}):
			var elems []tftypes.Value
			if err := v.As(&elems); err != nil {
				t.Fatal(err)
			}
			for i, e := range elems {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		}
	}
	walk("", v)
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// callForResult calls a function through srv and gives its result as a
// value of dynamic type, as Terraform reads it.
func callForResult(t *testing.T, srv tfprotov6.ProviderServer, name string, args ...tftypes.Value) tftypes.Value {
	t.Helper()
	resp := callServerRaw(t, srv, name, args...)
	if resp.Error != nil {
		t.Fatalf("%s: %s", name, resp.Error.Text)
	}
	v, err := resp.Result.Unmarshal(tftypes.DynamicPseudoType)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The unknown leaves render and render_file return carry the most precise
// type known (the unknown-values guide): kubernetes_manifest converts a
// manifest to its schema and refuses an unknown of dynamic type where it
// expects a string. Both the server's direct path and the framework's
// return exactly these types.
func TestFunctions_unknownLeavesKeepTheirType(t *testing.T) {
	unknown := func(typ tftypes.Type) tftypes.Value { return tftypes.NewValue(typ, tftypes.UnknownValue) }
	vars := ctxObject(map[string]tftypes.Value{
		"tag":      unknown(tftypes.Number),
		"replicas": unknown(tftypes.Number),
		"paused":   unknown(tftypes.Bool),
		"image":    unknown(tftypes.DynamicPseudoType), // as terraform_data.output gives it
		"cmd":      unknown(tftypes.String),            // as a resource's string attribute gives it
		"extra":    unknown(tftypes.DynamicPseudoType),
	})
	const want = `metadata.annotations.ref: tftypes.String
spec.paused: tftypes.Bool
spec.replicas: tftypes.Number
spec.template.spec.containers[0].args[0]: tftypes.String
spec.template.spec.containers[0].command[0]: tftypes.String
spec.template.spec.containers[0].image: tftypes.String
spec.template.spec.containers[0].workingDir: tftypes.String`
	text, err := os.ReadFile("testdata/files/typed_unknowns.yaml")
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]tfprotov6.ProviderServer{
		"server":    NewServer("test")(),
		"framework": providerserver.NewProtocol6(New("test")())(),
	}
	for name, srv := range servers {
		for _, call := range []struct {
			fn   string
			args []tftypes.Value
		}{
			{"render", []tftypes.Value{str(string(text)), vars}},
			{"render_file", []tftypes.Value{str("testdata/files/typed_unknowns.yaml"), vars}},
		} {
			if got := unknownLeaves(t, callForResult(t, srv, call.fn, call.args...)); got != want {
				t.Errorf("%s, %s: unknown leaves\n%s\nwant\n%s", name, call.fn, got, want)
			}
		}
		// A context that is an unknown object still names its attributes
		// and their types: each variable is an unknown of that type.
		whole := unknown(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String, "n": tftypes.Number}})
		got := unknownLeaves(t, callForResult(t, srv, "render", str("name: {$eval: \"${{ name }}\"}\nn: {$eval: \"${{ n }}\"}\nkind: Pod\n"), whole))
		if want := "n: tftypes.Number\nname: tftypes.String"; got != want {
			t.Errorf("%s, unknown object context: unknown leaves\n%s\nwant\n%s", name, got, want)
		}
		// eval's own result is typed the same way.
		v := callForResult(t, srv, "eval", str("cmd + '/work'"), vars)
		if !v.Type().Is(tftypes.String) || v.IsKnown() {
			t.Errorf("%s, eval: got %s, want an unknown string", name, v)
		}
	}
}
