// Command coldstart measures, in a fresh process, what the first render
// costs (goal 5 of the performance guide). bench/run starts it several times and takes
// medians; each run prints "name value" lines in microseconds:
//
//	first_eval_us      the first Eval in the process: builds the CEL
//	                   environment (once per process, lazily) and compiles "1"
//	second_eval_us     an Eval of another new expression on another fresh
//	                   engine: compile only, the environment is built
//	env_build_us       first_eval_us - second_eval_us, the environment's cost
//	first_render50_us  a fresh engine rendering a new template of 50
//	                   distinct expressions (environment already built)
//	first_kitchen_us   a fresh engine rendering the kitchen sink with 20
//	                   services, plus its YAML (environment already built)
//
// Run it from the repository root: it reads
// internal/engine/testdata/bench.
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "coldstart:", err)
		os.Exit(1)
	}
}

func since(t time.Time) float64 { return float64(time.Since(t).Nanoseconds()) / 1e3 }

func run() error {
	ctx := context.Background()

	t := time.Now()
	if _, err := engine.New(engine.DefaultOptions()).Eval(ctx, "1", nil); err != nil {
		return err
	}
	first := since(t)

	t = time.Now()
	if _, err := engine.New(engine.DefaultOptions()).Eval(ctx, "2 + 3", nil); err != nil {
		return err
	}
	second := since(t)

	tmpl, svc := template50()
	render50, err := timeRender(ctx, engine.Source{Text: []byte(tmpl)}, map[string]value.Value{"svc": svc})
	if err != nil {
		return err
	}

	const path = "internal/engine/testdata/bench/kitchen_sink.yaml"
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	kitchen, err := timeRender(ctx, engine.Source{Name: path, Text: text},
		map[string]value.Value{"env": "prod", "region": "us-east-1", "services": services(20)})
	if err != nil {
		return err
	}

	fmt.Printf("first_eval_us %.0f\nsecond_eval_us %.0f\nenv_build_us %.0f\nfirst_render50_us %.0f\nfirst_kitchen_us %.0f\n",
		first, second, first-second, render50, kitchen)
	return nil
}

// timeRender renders src with a fresh engine and writes the YAML, and
// gives the time taken in microseconds.
func timeRender(ctx context.Context, src engine.Source, vars map[string]value.Value) (float64, error) {
	t := time.Now()
	docs, err := engine.New(engine.DefaultOptions()).Render(ctx, src, vars)
	if err != nil {
		return 0, err
	}
	if _, err := engine.EncodeYAMLStream(docs); err != nil {
		return 0, err
	}
	return since(t), nil
}

// template50 is a template of 50 distinct expressions over one service,
// and that service.
func template50() (string, value.Value) {
	svc := value.NewMap(4)
	tags := value.NewMap(1)
	tags.Set("tier", "web")
	svc.Set("ha", true)
	svc.Set("name", "cart")
	svc.Set("port", int64(8080))
	svc.Set("tags", tags)
	var tmpl strings.Builder
	for i := 0; i < 50; i++ {
		var expr string
		switch i % 5 {
		case 0:
			expr = "svc.name + '-" + strconv.Itoa(i) + "'"
		case 1:
			expr = "svc.port + " + strconv.Itoa(i)
		case 2:
			expr = "svc.ha ? " + strconv.Itoa(i) + " : 0"
		case 3:
			expr = "[1, 2, " + strconv.Itoa(i) + "].map(x, x * 2).size()"
		case 4:
			expr = "svc.tags.exists(k, k == 'tier" + strconv.Itoa(i) + "')"
		}
		fmt.Fprintf(&tmpl, "k%02d:\n  $eval: \"${{ %s }}\"\n", i, expr)
	}
	return tmpl.String(), svc
}

// services are the kitchen sink's n services.
func services(n int) []value.Value {
	svcs := make([]value.Value, n)
	for i := range svcs {
		m := value.NewMap(4)
		t := value.NewMap(3)
		t.Set("cost-center", strconv.Itoa(1000+i))
		t.Set("owner", "team-"+strconv.Itoa(i%13))
		t.Set("tier", "web")
		m.Set("ha", i%3 != 0)
		m.Set("name", "svc"+strconv.Itoa(i))
		m.Set("port", int64(8000+i))
		m.Set("tags", t)
		svcs[i] = m
	}
	return svcs
}
