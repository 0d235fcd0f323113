package provider

import (
	"context"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// numbersSentence is what the README and the documentation's index say
// about numbers, with line breaks read as spaces.
const numbersSentence = "Integers stay integers (2^53 + 1 survives). In a template, " +
	"YAML `2` is a CEL `int` and `2.0` a `double`; a number from Terraform is " +
	"an `int` when it is whole and fits in 64 bits, so Terraform's `2.0` is " +
	"the int `2`, and a `double` otherwise. A whole double is written as `2` " +
	"in YAML and JSON."

// oneLine joins a Markdown paragraph's lines with single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// The README and the docs index say exactly how numbers keep their type,
// and the engine and the provider behave as they say.
func TestDocs_numbersSentenceHoldsAndIsEverywhere(t *testing.T) {
	for _, path := range []string{"../../README.md", "../../templates/index.md.tmpl"} {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		flat := oneLine(string(text))
		if !strings.Contains(flat, numbersSentence) {
			t.Errorf("%s does not say: %s", path, numbersSentence)
		}
		for _, wrong := range []string{"`2` and `2.0` stay apart", "`2` and `2.0` are told apart"} {
			if strings.Contains(flat, wrong) {
				t.Errorf("%s still says %q, which does not hold for numbers from Terraform", path, wrong)
			}
		}
	}

	e := engine.New(engine.DefaultOptions())
	render := func(tmpl string, vars map[string]value.Value) string {
		t.Helper()
		docs, err := e.Render(context.Background(), engine.Source{Text: []byte(tmpl)}, vars)
		if err != nil {
			t.Fatalf("%s: %v", tmpl, err)
		}
		out, err := engine.EncodeYAMLStream(docs)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}

	// In a template, YAML 2 is an int and 2.0 a double, inside CEL.
	if got, want := render("$let: {a: \"2\", b: \"2.0\"}\ntypes: {$eval: \"${{ [type(a), type(b)] }}\"}\n", nil),
		"types:\n  - int\n  - double\n"; got != want {
		t.Errorf("YAML 2 and 2.0 in CEL: got %q, want %q", got, want)
	}
	// A whole double is written as 2, in YAML and in JSON.
	if got, want := render("a: 2.0\nb: {$eval: \"${{ 4.0 / 2.0 }}\"}\nc: 2.5\n", nil), "a: 2\nb: 2\nc: 2.5\n"; got != want {
		t.Errorf("whole doubles in YAML: got %q, want %q", got, want)
	}
	if got, err := engine.AppendJSON(nil, 2.0, true); err != nil || string(got) != "2" {
		t.Errorf("a whole double in JSON: got %q, %v; want \"2\"", got, err)
	}
	// A Terraform number is an int when whole and within 64 bits, a double
	// otherwise.
	for _, tc := range []struct {
		number *big.Float
		want   string
	}{
		{big.NewFloat(2.0), "int"},
		{big.NewFloat(2.5), "double"},
		{new(big.Float).SetInt(new(big.Int).Lsh(big.NewInt(1), 64)), "double"}, // 2^64: whole, beyond int64
	} {
		n, err := toEngine(tftypes.NewValue(tftypes.Number, tc.number))
		if err != nil {
			t.Fatal(err)
		}
		got := render("t: {$eval: \"${{ type(n) }}\"}\n", map[string]value.Value{"n": n})
		if want := "t: " + tc.want + "\n"; got != want {
			t.Errorf("Terraform number %s: got %q, want %q", tc.number.Text('g', 20), got, want)
		}
	}
}
