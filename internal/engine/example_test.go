package engine_test

import (
	"context"
	"fmt"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// A template renders to documents, which EncodeYAMLStream writes as the
// provider and the command line print them (reference §3 $eval, §4 $for).
func ExampleEngine_Render() {
	e := engine.New(engine.DefaultOptions())
	src := engine.Source{Text: []byte(`
name:
  $eval: "${{ app }}-web"
ports:
  - $for: "p in [80, 443]"
    $do:
      port: {$eval: "${{ p }}"}
`)}
	docs, err := e.Render(context.Background(), src, map[string]value.Value{"app": "shop"})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, _ := engine.EncodeYAMLStream(docs)
	fmt.Print(string(out))
	// Output:
	// name: shop-web
	// ports:
	//   - port: 80
	//   - port: 443
}

// A render stops at its first error, positioned and with the path of the
// directive, and never shows a variable's value (reference §6).
func ExampleEngine_Render_error() {
	e := engine.New(engine.DefaultOptions())
	src := engine.Source{Name: "app.yaml", Text: []byte("replicas:\n  $if: \"count\"\n  $then: 1\n")}
	_, err := e.Render(context.Background(), src, map[string]value.Value{"count": int64(3)})
	fmt.Println(err)
	// Output:
	// app.yaml:2:8: replicas.$if: the $if condition must be a bool, got int; CEL has no truthiness: write truthy(x) for Helm's notion of set, or compare explicitly, e.g. x != '', size(x) > 0 or x != null
	//   | count
}

// Check finds every problem it can without rendering, not only the first
// (reference §2, §4).
func ExampleEngine_Check() {
	e := engine.New(engine.DefaultOptions())
	src := engine.Source{Name: "app.yaml", Text: []byte("a:\n  $iff: \"x\"\n  $then: 1\nb:\n  $for: \"p in ports\"\n")}
	problems, _ := e.Check(context.Background(), src, func(name string) bool { return name == "ports" })
	for _, p := range problems {
		fmt.Println(p.Err.Pos.String() + ": " + p.Err.Msg)
	}
	// Output:
	// app.yaml:2:3: unknown directive $iff: did you mean $if? To output a key $iff as data, write $$iff
	// app.yaml:5:3: $for without $do: write the body to render for each element under $do
}

// Eval evaluates one CEL expression with the engine's functions (reference
// §5).
func ExampleEngine_Eval() {
	e := engine.New(engine.DefaultOptions())
	v, err := e.Eval(context.Background(), "'v' + string(major + 1)", map[string]value.Value{"major": int64(1)})
	fmt.Println(v, err)
	// Output:
	// v2 <nil>
}
