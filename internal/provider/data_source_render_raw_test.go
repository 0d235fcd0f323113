package provider

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// rawAndSlow reads a configuration on the raw path and on the tftypes
// path. ok is whether the raw path answered.
func rawAndSlow(t *testing.T, vals map[string]tftypes.Value) (raw, slow tftypes.Value, ok bool) {
	t.Helper()
	cfg := dsConfig(t, vals).Raw
	dv, err := tfprotov6.NewDynamicValue(renderStateType(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	d := &renderDataSource{engine: testEngine}
	state, ok := d.readRaw(context.Background(), dv.MsgPack)
	if !ok {
		return tftypes.Value{}, tftypes.Value{}, false
	}
	if raw, err = (&tfprotov6.DynamicValue{MsgPack: state}).Unmarshal(renderStateType()); err != nil {
		t.Fatalf("the raw state does not decode: %v\n%x", err, state)
	}
	slow, diags := d.read(context.Background(), cfg)
	if diags.HasError() {
		t.Fatalf("the tftypes path failed where the raw path answered: %v", diags)
	}
	want, err := tfprotov6.NewDynamicValue(renderStateType(), slow)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(state, want.MsgPack) {
		t.Errorf("the raw state's bytes differ from the tftypes path's:\n raw %x\nwant %x", state, want.MsgPack)
	}
	return raw, slow, true
}

// The raw path gives the state the tftypes path gives, attribute for
// attribute, for the configurations it answers.
func TestRenderRaw_givesTheTftypesState(t *testing.T) {
	for name, vals := range map[string]map[string]tftypes.Value{
		"kitchen sink, 20 services": {"template_file": str(kitchenSinkPath), "context": benchContext()},
		"three documents and a non-manifest": {"template": str("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {$eval: \"${{ name }}\"}\n  namespace: prod\n---\nkind: Service\nmetadata: {name: cart}\n---\nnote: x\n"),
			"context": ctxObject(map[string]tftypes.Value{"name": str("cart")})},
		"no documents":        {"template": str("$if: false\n$then: {a: 1}\n")},
		"one scalar document": {"template": str("just text\n"), "base_dir": str(".")},
		"a null context":      {"template": str("a: 1\n"), "context": tftypes.NewValue(tftypes.DynamicPseudoType, nil)},
		"numbers and unicode": {"template": str("n: {$eval: \"${{ 9007199254740993 }}\"}\nf: 0.1\nk: \"ä<>&\"\n")},
		"sensitive, a Secret": {"template": str("kind: Secret\nmetadata: {name: db}\nstringData: {pw: {$eval: \"${{ pw }}\"}}\n---\nb: 2\n"),
			"context": ctxObject(map[string]tftypes.Value{"pw": str("hunter2")}), "sensitive": tftypes.NewValue(tftypes.Bool, true)},
		"sensitive false, no Secret": {"template": str("a: 1\n"), "sensitive": tftypes.NewValue(tftypes.Bool, false)},
	} {
		t.Run(name, func(t *testing.T) {
			raw, slow, ok := rawAndSlow(t, vals)
			if !ok {
				t.Fatal("the raw path declined")
			}
			if !raw.Equal(slow) {
				diffs, _ := raw.Diff(slow)
				t.Fatalf("the states differ: %v", diffs)
			}
		})
	}
}

// What the tftypes path reports on, the raw path leaves to it.
func TestRenderRaw_declinesWhatTheTftypesPathReports(t *testing.T) {
	for name, vals := range map[string]map[string]tftypes.Value{
		"a rendering error":              {"template": str("a: {$eval: \"${{ missing }}\"}\n")},
		"a duplicate manifest":           {"template": str("kind: A\nmetadata: {name: x}\n---\nkind: A\nmetadata: {name: x}\n")},
		"a kind that is a number":        {"template": str("kind: 1\nmetadata: {name: x}\n")},
		"no template":                    {},
		"both templates":                 {"template": str("a: 1\n"), "template_file": str("x.yaml")},
		"a context that is text":         {"template": str("a: 1\n"), "context": str("text")},
		"a Secret's data, not sensitive": {"template": str("kind: Secret\nmetadata: {name: db}\ndata: {pw: aHVudGVyMg==}\n")},
	} {
		t.Run(name, func(t *testing.T) {
			if _, _, ok := rawAndSlow(t, vals); ok {
				t.Fatal("the raw path answered")
			}
		})
	}
}

// Validation takes the raw path for a known configuration, with the
// diagnostics of the tftypes path, and leaves a configuration with
// unknown values (which the check at plan reads) or a wrong set of
// template attributes to the tftypes path.
func TestValidateRaw_answersKnownConfigurationsAsTheTftypesPath(t *testing.T) {
	unknownPort := ctxObject(map[string]tftypes.Value{"port": tftypes.NewValue(tftypes.Number, tftypes.UnknownValue)})
	for name, c := range map[string]struct {
		vals map[string]tftypes.Value
		raw  bool
	}{
		"kitchen sink, 20 services":       {map[string]tftypes.Value{"template_file": str(kitchenSinkPath), "context": benchContext()}, true},
		"a base_dir beside a file warns":  {map[string]tftypes.Value{"template_file": str("testdata/files/static.yaml"), "base_dir": str("testdata/files")}, true},
		"a null context":                  {map[string]tftypes.Value{"template": str("a: 1\n"), "context": tftypes.NewValue(tftypes.DynamicPseudoType, nil)}, true},
		"a template that does not render": {map[string]tftypes.Value{"template": str("a: {$eval: \"${{ missing }}\"}\n")}, true},
		"an unknown in the context":       {map[string]tftypes.Value{"template": str("p: {$eval: \"${{ port + 1 }}\"}\n"), "context": unknownPort}, false},
		"an unknown template":             {map[string]tftypes.Value{"template": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}, false},
		"no template":                     {map[string]tftypes.Value{}, false},
		"both templates":                  {map[string]tftypes.Value{"template": str("a: 1\n"), "template_file": str("x.yaml")}, false},
	} {
		t.Run(name, func(t *testing.T) {
			dv, err := tfprotov6.NewDynamicValue(renderStateType(), dsConfig(t, c.vals).Raw)
			if err != nil {
				t.Fatal(err)
			}
			diags, ok := validateRaw(dv.MsgPack)
			if ok != c.raw {
				t.Fatalf("validateRaw answered: %v, want %v", ok, c.raw)
			}
			srv := NewServer("test")().(*server)
			want := srv.validateTypes(context.Background(), &tfprotov6.ValidateDataResourceConfigRequest{TypeName: renderTypeName, Config: &dv})
			if got, want := diagText(protoDiagnostics(diags)), diagText(want.Diagnostics); ok && got != want {
				t.Fatalf("the raw path's diagnostics differ from the tftypes path's:\n raw %s\nwant %s", got, want)
			}
			if ok && name == "a base_dir beside a file warns" && len(diags) != 1 {
				t.Fatalf("expected the warning on base_dir, got %d diagnostics", len(diags))
			}
		})
	}
}

// diagText writes protocol diagnostics one a line.
func diagText(ds []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s %q %q at %v\n", d.Severity, d.Summary, d.Detail, d.Attribute)
	}
	return b.String()
}
