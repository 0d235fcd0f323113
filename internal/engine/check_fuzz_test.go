package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// FuzzCheck holds check to its promise: whatever the template, check
// ends, never panics, positions every problem, and a template it passes
// with some values renders with the same values.
func FuzzCheck(f *testing.F) {
	for _, s := range fuzzSeedTemplates(f) {
		f.Add(s.template, s.vars)
	}
	f.Add([]byte("a:\n  $if: x\n  $for: \"y in [1]\"\n  $eval: 3\n  $iff: 1\n  $then: 2\n"), []byte(`{"x": true}`))
	f.Add([]byte("a: &x\n  $fro: 1\n  b: *x\n"), []byte(`{}`))
	// Types from local $refs, a recursive one among them, and optionals.
	f.Add([]byte("$schema:\n  v: {$ref: '#/$defs/a', $defs: {a: {type: object, properties: {n: {$ref: '#/$defs/a'}, s: {type: string}}}}}\nx: {$eval: '${{ v.?n.s + 1 }}'}\ny: {$include: {$eval: '${{ v.n }}'}}\n"), []byte(`{"v": {"s": "a", "n": {"s": "b"}}}`))
	e := New(fuzzOptions())
	f.Fuzz(func(t *testing.T, tpl, varsJSON []byte) {
		watchdog := time.AfterFunc(fuzzHangGuard, func() {
			panic(fmt.Sprintf("check still running after %v: template %q, vars %q", fuzzHangGuard, tpl, varsJSON))
		})
		defer watchdog.Stop()
		vars, err := decodeJSONVars(varsJSON)
		if err != nil {
			vars = map[string]value.Value{}
		}
		ctx := t.Context()
		src := Source{Name: "template.yaml", Text: tpl}
		problems, _ := e.CheckRender(ctx, src, vars, nil)
		failed := false
		for _, p := range problems {
			if p.Err == nil || p.Err.Pos.Line < 1 || p.Err.Pos.Column < 1 {
				t.Fatalf("problem without a position: %+v", p)
			}
			failed = failed || !p.Warning
		}
		if failed {
			return
		}
		if _, err := e.Render(ctx, src, vars); err != nil {
			t.Fatalf("check passed, render failed with the same values: %v", err)
		}
	})
}
