//go:build unix

package engine

import (
	"context"
	"os"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// Benchmarks of `celyaml check` against `render` on the kitchen-sink
// example (examples/kitchen-sink: its $schema types env, region and the
// services, and it includes common/monitoring-agent.yaml), with the
// inputs its main.tf passes. Goal: checking a template costs at most 2x
// rendering it. Each runs twice: engine=new, a new engine for every run,
// as each `celyaml check` and `celyaml render` command has (the process's
// start left out); engine=reused, one engine for every run, after a first
// that fills its caches, as the language server and a provider keep
// theirs. bench/run prints the ratios of the medians.

// kitchenSinkDir is the example both benchmarks read.
const kitchenSinkDir = "../../examples/kitchen-sink"

// kitchenSinkEngine is a new engine whose loader reads the example.
func kitchenSinkEngine() *Engine {
	return New(Options{Loader: FSLoader{FS: os.DirFS(kitchenSinkDir)}})
}

// kitchenSink returns an engine reading the example's directory, its
// app.yaml and the inputs of its main.tf.
func kitchenSink(tb testing.TB) (*Engine, Source, map[string]value.Value) {
	tb.Helper()
	text, err := os.ReadFile(kitchenSinkDir + "/app.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	service := func(name string, ha bool) value.Value {
		m := value.NewMap(2)
		m.Set("ha", ha)
		m.Set("name", name)
		return m
	}
	vars := map[string]value.Value{"env": "prod", "region": "us-east-1",
		"services": []value.Value{service("cart", true), service("catalog", false)}}
	return kitchenSinkEngine(), Source{Name: "app.yaml", Text: text}, vars
}

// BenchmarkCheck_kitchenSink is `celyaml check app.yaml` without values
// files: every file checked and type-checked against the $schema, the
// included one too; no render, since the inputs have no defaults.
func BenchmarkCheck_kitchenSink(b *testing.B) {
	benchEngines(b, func(b *testing.B, e *Engine, src Source, _ map[string]value.Value) {
		problems, texts := e.Check(context.Background(), src, nil)
		if len(problems) != 0 {
			b.Fatalf("check found %d problems, the first: %s", len(problems), problems[0].Err.Error())
		}
		if len(texts) != 2 {
			b.Fatalf("check read %d files, want app.yaml and its include", len(texts))
		}
	})
}

// BenchmarkRender_kitchenSink renders the same template with the inputs of
// its main.tf: two services, then the monitoring agent.
func BenchmarkRender_kitchenSink(b *testing.B) {
	benchEngines(b, func(b *testing.B, e *Engine, src Source, vars map[string]value.Value) {
		docs, err := e.Render(context.Background(), src, vars)
		if err != nil {
			b.Fatal(err)
		}
		if len(docs) != 1 {
			b.Fatalf("%d documents, want the one List", len(docs))
		}
	})
}

// benchEngines runs one use of the kitchen sink as the sub-benchmarks
// engine=new and engine=reused, reported per template.
func benchEngines(b *testing.B, use func(b *testing.B, e *Engine, src Source, vars map[string]value.Value)) {
	b.Run("engine=new", func(b *testing.B) {
		_, src, vars := kitchenSink(b)
		m := startMeter(b)
		for b.Loop() {
			use(b, kitchenSinkEngine(), src, vars)
		}
		m.report(1, "template")
	})
	b.Run("engine=reused", func(b *testing.B) {
		e, src, vars := kitchenSink(b)
		use(b, e, src, vars) // fills the caches
		m := startMeter(b)
		for b.Loop() {
			use(b, e, src, vars)
		}
		m.report(1, "template")
	})
}

// BenchmarkSymbols_kitchenSink is what the language server reads of the
// kitchen sink at each edit: the names in scope at every key and scalar,
// the schemas of its variables and its literal $include paths.
func BenchmarkSymbols_kitchenSink(b *testing.B) {
	e, src, _ := kitchenSink(b)
	m := startMeter(b)
	for b.Loop() {
		s, err := e.Symbols(src)
		if err != nil {
			b.Fatal(err)
		}
		if len(s.Includes) != 1 || len(s.Scopes) == 0 {
			b.Fatalf("read %d includes and %d scopes, want the one include and every node", len(s.Includes), len(s.Scopes))
		}
	}
	m.report(1, "template")
}
