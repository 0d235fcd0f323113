package provider

import (
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

const appWant = `tuple[` +
	`object{apiVersion: "apps/v1", kind: "Deployment", metadata: object{labels: object{app: "cart", team: "sre"}, name: "cart-prod", namespace: "prod"}, spec: object{image: "nginx:1.27", replicas: number(3)}}, ` +
	`object{apiVersion: "v1", kind: "Service", metadata: object{name: "cart"}, spec: object{ports: tuple[object{port: number(80)}]}}]`

func TestRenderFileFunction_Known(t *testing.T) {
	f := &renderFileFunction{engine: testEngine}
	got := callOK(t, f, types.StringValue("testdata/files/app.yaml"), vars(t, "name", "cart", "env", "prod", "image", "nginx:1.27"))
	if got != appWant {
		t.Fatalf("got  %s\nwant %s", got, appWant)
	}
}

func TestRenderFileFunction_Null(t *testing.T) {
	f := &renderFileFunction{engine: testEngine}
	got := callOK(t, f, types.StringValue("testdata/files/static.yaml"), types.DynamicNull())
	if want := `object{data: object{size: number(2048)}, kind: "ConfigMap", metadata: object{name: "static"}}`; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestRenderFileFunction_Unknown(t *testing.T) {
	v, ferr := callFunction(t, &renderFileFunction{engine: noEngine(t)}, types.StringUnknown(), types.DynamicNull())
	if ferr != nil || !v.IsUnknown() {
		t.Fatalf("unknown path: got %s %v", v, ferr)
	}
	f := &renderFileFunction{engine: testEngine}
	got := callOK(t, f, types.StringValue("testdata/files/app.yaml"), vars(t, "name", "cart", "env", "prod", "image", value.Unknown{}))
	want := `tuple[` +
		`object{apiVersion: "apps/v1", kind: "Deployment", metadata: object{labels: object{app: "cart", team: "sre"}, name: "cart-prod", namespace: "prod"}, spec: object{image: unknown(basetypes.DynamicType), replicas: number(3)}}, ` +
		`object{apiVersion: "v1", kind: "Service", metadata: object{name: "cart"}, spec: object{ports: tuple[object{port: number(80)}]}}]`
	if got != want {
		t.Fatalf("unknown image:\n got %s\nwant %s", got, want)
	}
}

func TestRenderFileFunction_errorNamesTheFile(t *testing.T) {
	_, ferr := callFunction(t, &renderFileFunction{engine: testEngine}, types.StringValue("testdata/files/broken.yaml"), types.DynamicNull())
	want := "testdata/files/broken.yaml:4:12: data.sum.$eval: no matching overload for int + double; CEL never mixes int, uint and double: convert one side, e.g. double(x) or int(x)\n  | ${{ 1 + 1.0 }}\n  | ......^\n  ^ marks where the expression fails"
	if ferr == nil || ferr.Text != want {
		t.Fatalf("got %v\nwant %q", ferr, want)
	}
}

func TestRenderFileFunction_missingFile(t *testing.T) {
	_, ferr := callFunction(t, &renderFileFunction{engine: testEngine}, types.StringValue("testdata/files/nope.yaml"), types.DynamicNull())
	if ferr == nil || !strings.Contains(ferr.Text, "testdata/files/nope.yaml") {
		t.Fatalf("got %v", ferr)
	}
}
