package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// render_file types each unknown by where it lands, as kubernetes_manifest
// reads the manifest at plan (the unknown-values guide, "What is typed
// from where"): the built-in kinds' schemas and the CRD in the same
// render give primitive places their type (a string made in the template
// in an int-or-string stays one). The server's direct path
// and the framework's agree.
func TestRenderFile_unknownsAreTypedByTheirKind(t *testing.T) {
	unknown := func(typ tftypes.Type) tftypes.Value { return tftypes.NewValue(typ, tftypes.UnknownValue) }
	vars := ctxObject(map[string]tftypes.Value{
		"values": unknown(tftypes.DynamicPseudoType),
		"flags":  unknown(tftypes.DynamicPseudoType),
		"port":   unknown(tftypes.DynamicPseudoType),
		"number": unknown(tftypes.Number),
		"args":   unknown(tftypes.List{ElementType: tftypes.String}),
	})
	const want = `[0].metadata.labels.team: tftypes.String
[0].spec.replicas: tftypes.Number
[0].spec.template.spec.containers[0].args[0]: tftypes.String
[0].spec.template.spec.containers[0].image: tftypes.String
[0].spec.template.spec.containers[0].imagePullPolicy: tftypes.String
[0].spec.template.spec.containers[0].ports[0].containerPort: tftypes.Number
[1].spec.ports[0].targetPort: tftypes.String
[3].metadata.annotations.note: tftypes.String
[3].spec.color: tftypes.String
[3].spec.enabled: tftypes.Bool
[3].spec.size: tftypes.Number`
	servers := map[string]tfprotov6.ProviderServer{
		"server":    NewServer("test")(),
		"framework": providerserver.NewProtocol6(New("test")())(),
	}
	for name, srv := range servers {
		got := unknownLeaves(t, callForResult(t, srv, "render_file", str("testdata/files/typed_by_kind.yaml"), vars))
		if got != want {
			t.Errorf("%s: unknown leaves\n%s\nwant\n%s", name, got, want)
		}
	}
}

// An unknown whose type disagrees with its place is an error at plan that
// names the document, the path and both types, never a value.
func TestRender_anUnknownOfTheWrongTypeIsAnErrorNamingBoth(t *testing.T) {
	vars := ctxObject(map[string]tftypes.Value{"n": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)})
	tmpl := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: {$eval: \"${{ n }}\"}\n"
	const want = "document 0 (apps/v1 Deployment): spec.replicas: an unknown string where the kind's schema declares number; convert it in the template (string(...), int(...), ...) or give the input that type"
	for name, srv := range map[string]tfprotov6.ProviderServer{
		"server":    NewServer("test")(),
		"framework": providerserver.NewProtocol6(New("test")())(),
	} {
		if got := callError(t, srv, "render", str(tmpl), vars); got != want {
			t.Errorf("%s: got  %s\nwant %s", name, got, want)
		}
	}
}

// A $for over an unknown list gives an unknown list of its items' type
// (reference §4 $for), so the place it lands checks that type at plan: a
// list of numbers where a Service's ports, objects, are declared is an
// error naming both, and a list of strings in a pod's dnsConfig, outside
// any list, plans as an unknown of dynamic type.
func TestRender_aForOverAnUnknownListIsCheckedAgainstItsPlace(t *testing.T) {
	vars := ctxObject(map[string]tftypes.Value{"ports": tftypes.NewValue(tftypes.List{ElementType: tftypes.Number}, tftypes.UnknownValue)})
	tmpl := "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  ports:\n    - $for: p in ports\n      $do: {$eval: \"${{ p }}\"}\n"
	const want = "document 0 (v1 Service): spec.ports[*]: an unknown number where the kind's schema declares object; convert it in the template (string(...), int(...), ...) or give the input that type"
	servers := map[string]tfprotov6.ProviderServer{
		"server":    NewServer("test")(),
		"framework": providerserver.NewProtocol6(New("test")())(),
	}
	for name, srv := range servers {
		if got := callError(t, srv, "render", str(tmpl), vars); got != want {
			t.Errorf("%s: got  %s\nwant %s", name, got, want)
		}
	}
	vars = ctxObject(map[string]tftypes.Value{"servers": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, tftypes.UnknownValue)})
	tmpl = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: app, image: app}]\n  dnsConfig:\n    nameservers:\n      - $for: s in servers\n        $do: {$eval: \"10.0.0.${{ s }}\"}\n"
	for name, srv := range servers {
		if got := unknownLeaves(t, callForResult(t, srv, "render", str(tmpl), vars)); got != "spec.dnsConfig.nameservers: tftypes.DynamicPseudoType" {
			t.Errorf("%s: unknown leaves %s", name, got)
		}
	}
}

// callError calls a function through srv and gives its error's text.
func callError(t *testing.T, srv tfprotov6.ProviderServer, name string, args ...tftypes.Value) string {
	t.Helper()
	resp := callServerRaw(t, srv, name, args...)
	if resp.Error == nil {
		t.Fatalf("%s: no error", name)
	}
	return resp.Error.Text
}

// validate returns its documents with their unknowns typed from its
// schemas (and the built-in kinds): `manifests(validate(render_file(...),
// crds))` gives kubernetes_manifest a custom kind's fields typed.
func TestValidateFunction_typesUnknownsFromItsSchemas(t *testing.T) {
	dyn := tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue)
	specT := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"image": tftypes.DynamicPseudoType, "replicas": tftypes.DynamicPseudoType}}
	metaT := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String}}
	docT := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"apiVersion": tftypes.String, "kind": tftypes.String, "metadata": metaT, "spec": specT}}
	doc := tftypes.NewValue(docT, map[string]tftypes.Value{
		"apiVersion": str("example.com/v1"), "kind": str("Widget"),
		"metadata": tftypes.NewValue(metaT, map[string]tftypes.Value{"name": str("a")}),
		"spec":     tftypes.NewValue(specT, map[string]tftypes.Value{"image": dyn, "replicas": dyn}),
	})
	for _, arg := range []tftypes.Value{doc, tupleOf([]tftypes.Value{doc})} {
		got, ferr := (&validateFunction{}).call(t.Context(), []tftypes.Value{arg, widgetCRD(t)})
		if ferr != nil {
			t.Fatalf("error: %s", ferr.Text)
		}
		prefix := ""
		if arg.Type().Is(tftypes.Tuple{}) {
			prefix = "[0]"
		}
		want := prefix + ".spec.image: tftypes.String\n" + prefix + ".spec.replicas: tftypes.Number"
		if prefix == "" {
			want = "spec.image: tftypes.String\nspec.replicas: tftypes.Number"
		}
		if leaves := unknownLeaves(t, got); leaves != want {
			t.Errorf("got\n%s\nwant\n%s", leaves, want)
		}
	}
}
