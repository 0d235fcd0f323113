package provider

import (
	"runtime"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Resource bombs that reach the engine through the provider fail with an
// error that names the limit, like they do in the engine's own hostile
// corpus, and allocate less than 256 MB on the way.
func TestRenderFunction_resourceBombsNameTheirLimit(t *testing.T) {
	aliasBomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
	sixDeep := "items:\n  - $for: a in lists.range(100)\n    $do:\n      $for: b in lists.range(100)\n      $do:\n        $for: c in lists.range(100)\n        $do:\n          $for: d in lists.range(100)\n          $do:\n            $for: e in lists.range(100)\n            $do:\n              $for: f in lists.range(100)\n              $do: x\n"
	cases := []struct{ name, tmpl, limit string }{
		{"alias bomb", aliasBomb, "MaxNodes"},
		{"six-deep for", sixDeep, "MaxIterations"},
		{"huge list", "big:\n  $eval: \"${{ lists.range(1000000).map(i, lists.range(1000000)) }}\"\n", "MaxCostPerExpression"},
		{"deep nesting", strings.Repeat("[", 600) + strings.Repeat("]", 600) + "\n", "MaxDepth"},
	}
	f := &renderFunction{engine: testEngine}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runtime.GC()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			_, ferr := callFunction(t, f, types.StringValue(c.tmpl), types.DynamicNull())
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if ferr == nil {
				t.Fatal("rendered, want an error naming " + c.limit)
			}
			if msg := ferr.Text; !strings.Contains(msg, c.limit+" (") || !strings.Contains(msg, "raise it with the command line's --max-") {
				t.Fatalf("error does not name %s:\n%s", c.limit, msg)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<20 {
				t.Fatalf("allocated %d MB, want under 256 MB", alloc>>20)
			}
		})
	}
}
