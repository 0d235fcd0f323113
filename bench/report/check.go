package main

// checkRender reports `celyaml check` against `render` on the kitchen-sink
// example (internal/engine/check_bench_test.go), per template: with a new
// engine for each run, as each command has, judged against the goal of at
// most 2× the render; with one engine reused, as the language server keeps
// it, where the render's caches leave it almost nothing to do.
func checkRender(t *table, s samples) {
	if !s.get("Check_kitchenSink/engine=new", "ns/template").ok {
		return
	}
	t.section("check against render: the kitchen-sink example, per template")
	line := func(label, bench, goal string) {
		if st := s.get(bench, "ns/template"); st.ok {
			t.add(row{measure: label, value: us(st.med), cpu: cpuOf(s, bench, "template"), spread: pct(st),
				allocs: num(s.get(bench, "allocs/template").med), goal: goal})
		}
	}
	for _, e := range []string{"new", "reused"} {
		goal := ""
		if c, w, hasCPU, ok := ratios(s, "Check_kitchenSink/engine="+e, "Render_kitchenSink/engine="+e, "cpu-ns/template", "ns/template"); ok {
			if e == "new" {
				goal = judge(c, w, hasCPU, 2, "%.2f×", "× the render")
			} else {
				goal = "(no goal) × the render: wall " + ratio(w, 1) + "×, cpu " + ratio(c, 1) + "×"
			}
		}
		line("render, engine "+e, "Render_kitchenSink/engine="+e, "")
		line("check, engine "+e, "Check_kitchenSink/engine="+e, goal)
	}
}
