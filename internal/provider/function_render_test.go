package provider

import (
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestRenderFunction_Known(t *testing.T) {
	f := &renderFunction{engine: testEngine}
	got := callOK(t, f, types.StringValue("name:\n  $eval: \"${{ app }}\"\nreplicas:\n  $eval: \"${{ n * 2 }}\"\n"), vars(t, "app", "cart", "n", 21))
	if want := `object{name: "cart", replicas: number(42)}`; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestRenderFunction_Null(t *testing.T) {
	f := &renderFunction{engine: testEngine}
	got := callOK(t, f, types.StringValue("a: 1\nb: [x, 2.5]\n"), types.DynamicNull())
	if want := `object{a: number(1), b: tuple["x", number(2.5)]}`; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestRenderFunction_emptyContext(t *testing.T) {
	f := &renderFunction{engine: testEngine}
	got := callOK(t, f, types.StringValue("a: 1\n"), vars(t))
	if want := `object{a: number(1)}`; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestRenderFunction_Unknown(t *testing.T) {
	// An unknown template gives an unknown result without rendering.
	v, ferr := callFunction(t, &renderFunction{engine: noEngine(t)}, types.StringUnknown(), vars(t, "a", 1))
	if ferr != nil || !v.IsUnknown() {
		t.Fatalf("unknown template: got %s %v", v, ferr)
	}
	// So does a wholly unknown context: not even the variable names are known.
	v, ferr = callFunction(t, &renderFunction{engine: noEngine(t)}, types.StringValue("a: 1\n"), types.DynamicUnknown())
	if ferr != nil || !v.IsUnknown() {
		t.Fatalf("unknown context: got %s %v", v, ferr)
	}
}

func TestRenderFunction_unknownLeafStaysALeaf(t *testing.T) {
	f := &renderFunction{engine: testEngine}
	got := callOK(t, f, types.StringValue("image:\n  $eval: \"${{ image }}\"\nname: cart\n"), vars(t, "image", value.Unknown{}))
	if want := `object{image: unknown(basetypes.DynamicType), name: "cart"}`; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestRenderFunction_unknownIfConditionIsUnknownAtItsNode(t *testing.T) {
	f := &renderFunction{engine: testEngine}
	tmpl := "name: cart\nspec:\n  replicas:\n    $if: \"ha\"\n    $then: 3\n    $else: 1\n  port: 80\n"
	got := callOK(t, f, types.StringValue(tmpl), vars(t, "ha", value.Unknown{}))
	// both branches are numbers, so the unknown is a number
	if want := `object{name: "cart", spec: object{port: number(80), replicas: unknown(basetypes.NumberType)}}`; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestRenderFunction_unknownDocumentCountIsUnknown(t *testing.T) {
	f := &renderFunction{engine: testEngine}
	v, ferr := callFunction(t, f, types.StringValue("$for: \"s in services\"\n$do:\n  name:\n    $eval: \"${{ s }}\"\n"), vars(t, "services", value.Unknown{}))
	if ferr != nil || !v.IsUnknown() {
		t.Fatalf("got %s %v", v, ferr)
	}
}

func TestRenderFunction_multiDocumentIsTuple(t *testing.T) {
	f := &renderFunction{engine: testEngine}
	got := callOK(t, f, types.StringValue("a: 1\n---\nb: 2\n"), types.DynamicNull())
	if want := `tuple[object{a: number(1)}, object{b: number(2)}]`; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestRenderFunction_zeroDocumentsIsEmptyTuple(t *testing.T) {
	f := &renderFunction{engine: testEngine}
	got := callOK(t, f, types.StringValue("$if: \"on\"\n$then:\n  a: 1\n"), vars(t, "on", false))
	if got != `tuple[]` {
		t.Fatalf("got %s", got)
	}
}

func TestRenderFunction_includeResolvesAgainstWorkingDirectory(t *testing.T) {
	f := &renderFunction{engine: testEngine}
	got := callOK(t, f, types.StringValue("$include: testdata/files/parts/labels.yaml\n"), vars(t, "name", "cart"))
	if want := `object{app: "cart", team: "sre"}`; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestRenderFunction_errorCarriesThePositionedEngineMessage(t *testing.T) {
	f := &renderFunction{engine: testEngine}
	_, ferr := callFunction(t, f, types.StringValue("kind: x\nsum:\n  $eval: \"${{ 1 + 1.0 }}\"\n"), types.DynamicNull())
	if ferr == nil {
		t.Fatal("no error")
	}
	want := "<inline>:3:10: sum.$eval: no matching overload for int + double; CEL never mixes int, uint and double: convert one side, e.g. double(x) or int(x)\n  | ${{ 1 + 1.0 }}\n  | ......^\n  ^ marks where the expression fails"
	if ferr.Text != want || ferr.FunctionArgument != nil {
		t.Fatalf("got  %q\nwant %q", ferr.Text, want)
	}
}

func TestRenderFunction_contextMustBeAnObject(t *testing.T) {
	_, ferr := callFunction(t, &renderFunction{engine: noEngine(t)}, types.StringValue("a: 1\n"), types.DynamicValue(types.StringValue("x")))
	if ferr == nil || ferr.FunctionArgument == nil || *ferr.FunctionArgument != 1 {
		t.Fatalf("got %v", ferr)
	}
	if want := "context must be an object or a map, whose attributes become variables; got a string"; ferr.Text != want {
		t.Fatalf("got %q", ferr.Text)
	}
}
