package provider

import (
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestEvalFunction_Known(t *testing.T) {
	f := &evalFunction{engine: testEngine}
	for _, tc := range []struct {
		expr string
		ctx  types.Dynamic
		want string
	}{
		{"replicas * 2", vars(t, "replicas", 3), "number(6)"},
		{"name + '-' + env", vars(t, "name", "cart", "env", "prod"), `"cart-prod"`},
		{"{'b': 1, 'a': [true, null]}", vars(t), `object{a: tuple[true, null(basetypes.DynamicType)], b: number(1)}`},
		{"9007199254740993 + 0", vars(t), "number(9007199254740993)"},
		{"big + 1", vars(t, "big", int64(9007199254740992)), "number(9007199254740993)"},
		{"1.5 * 2.0", vars(t), "number(3)"},
	} {
		if got := callOK(t, f, types.StringValue(tc.expr), tc.ctx); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.expr, got, tc.want)
		}
	}
}

func TestEvalFunction_Null(t *testing.T) {
	f := &evalFunction{engine: testEngine}
	if got := callOK(t, f, types.StringValue("[1, 2, 3].size()"), types.DynamicNull()); got != "number(3)" {
		t.Fatalf("got %s", got)
	}
	if got := callOK(t, f, types.StringValue("null"), types.DynamicNull()); got != "null(basetypes.DynamicType)" {
		t.Fatalf("null: got %s", got)
	}
}

func TestEvalFunction_Unknown(t *testing.T) {
	// reading an unknown variable gives unknown, of the type the
	// expression has
	f := &evalFunction{engine: testEngine}
	if got := callOK(t, f, types.StringValue("image + ':latest'"), vars(t, "image", value.Unknown{}, "n", 1)); got != "unknown(basetypes.StringType)" {
		t.Fatalf("reads unknown: got %s", got)
	}
	// not reading it stays known
	if got := callOK(t, f, types.StringValue("n + 1"), vars(t, "image", value.Unknown{}, "n", 1)); got != "number(2)" {
		t.Fatalf("does not read unknown: got %s", got)
	}
	// an unknown expression is unknown without evaluating
	v, ferr := callFunction(t, &evalFunction{engine: noEngine(t)}, types.StringUnknown(), types.DynamicNull())
	if ferr != nil || !v.IsUnknown() {
		t.Fatalf("unknown expression: got %s %v", v, ferr)
	}
	v, ferr = callFunction(t, &evalFunction{engine: noEngine(t)}, types.StringValue("1"), types.DynamicUnknown())
	if ferr != nil || !v.IsUnknown() {
		t.Fatalf("unknown context: got %s %v", v, ferr)
	}
}

func TestEvalFunction_errorShowsTheCaretAndNoValue(t *testing.T) {
	f := &evalFunction{engine: testEngine}
	_, ferr := callFunction(t, f, types.StringValue("password + 1"), vars(t, "password", "s3cr3t-hunter2"))
	if ferr == nil {
		t.Fatal("no error")
	}
	if want := "<inline>:1:1: no matching overload for string + int; CEL never turns a value into text on its own: write string(x), or interpolate it: $eval: \"name-${{ x }}\"\n  | password + 1\n  | .........^\n  ^ marks where the expression fails"; ferr.Text != want {
		t.Fatalf("got  %q\nwant %q", ferr.Text, want)
	}
	if strings.Contains(ferr.Text, "s3cr3t-hunter2") {
		t.Fatalf("the error leaks the value: %q", ferr.Text)
	}
}

// A NaN or infinite double cannot be a Terraform number: eval says so at
// the expression, like any other error of the expression.
func TestEvalFunction_nonFiniteResultIsAnError(t *testing.T) {
	f := &evalFunction{engine: testEngine}
	_, ferr := callFunction(t, f, types.StringValue("double(used) / double(total)"), vars(t, "used", 3, "total", 0))
	if ferr == nil {
		t.Fatal("no error")
	}
	want := "<inline>:1:1: the result holds a NaN or infinite double (a division by zero?), which JSON and Terraform numbers cannot hold\n" +
		"  | double(used) / double(total)\n  | ^\n  ^ marks where the expression fails"
	if ferr.Text != want {
		t.Fatalf("got  %q\nwant %q", ferr.Text, want)
	}
}
