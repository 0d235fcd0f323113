// Command report prints bench/run's one table: medians of the Go
// benchmarks, the cold-start runs and the Terraform plans, with their
// spread, ratios against the yaml.v3 floor and against templatefile(), and
// whether each goal of the performance guide (docs/guides/performance.md) is met.
//
//	report GO_BENCH_OUTPUT COLDSTART_OUTPUT TERRAFORM_TIMINGS
//
// GO_BENCH_OUTPUT is `go test -bench` output (any -count); COLDSTART_OUTPUT
// and TERRAFORM_TIMINGS hold "name value" lines, one per run. A missing or
// empty file leaves its rows out.
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// samples maps "name unit" to the values of every run.
type samples map[string][]float64

func (s samples) add(name, unit string, v float64) {
	s[name+" "+unit] = append(s[name+" "+unit], v)
}

// stat is the median of a measure and its spread: (max-min)/median.
type stat struct {
	med, spread float64
	n           int
	ok          bool
}

func (s samples) get(name, unit string) stat {
	vs := append([]float64(nil), s[name+" "+unit]...)
	if len(vs) == 0 {
		return stat{}
	}
	sort.Float64s(vs)
	m := vs[len(vs)/2]
	if len(vs)%2 == 0 {
		m = (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
	}
	sp := 0.0
	if m != 0 {
		sp = (vs[len(vs)-1] - vs[0]) / m
	}
	return stat{med: m, spread: sp, n: len(vs), ok: true}
}

var procSuffix = regexp.MustCompile(`-\d+$`)

func readBench(path string, s samples) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := procSuffix.ReplaceAllString(strings.TrimPrefix(fields[0], "Benchmark"), "")
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				break
			}
			s.add(name, fields[i+1], v)
		}
	}
	return sc.Err()
}

func readPairs(path string, s samples, unit string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			continue
		}
		v, err := strconv.ParseFloat(fields[1], 64)
		if err != nil {
			continue
		}
		s.add(fields[0], unit, v)
	}
	return sc.Err()
}

type row struct {
	measure, value, cpu, spread, allocs, xFloor, xTemplatefile, goal string
}

type table struct{ rows []row }

func (t *table) add(r row) { t.rows = append(t.rows, r) }

func (t *table) section(title string) { t.rows = append(t.rows, row{measure: "**" + title + "**"}) }

func (t *table) print() {
	head := row{"measure", "wall", "cpu", "spread", "allocs", "× floor", "× templatefile", "goal"}
	fmt.Println("| " + strings.Join(cells(head), " | ") + " |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---|")
	for _, r := range t.rows {
		fmt.Println("| " + strings.Join(cells(r), " | ") + " |")
	}
}

func cells(r row) []string {
	return []string{r.measure, r.value, r.cpu, r.spread, r.allocs, r.xFloor, r.xTemplatefile, r.goal}
}

func us(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 10e3:
		return fmt.Sprintf("%.0f µs", ns/1e3)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

// cpuOf formats the median CPU time per unit of a benchmark.
func cpuOf(s samples, bench, unit string) string {
	if st := s.get(bench, "cpu-ns/"+unit); st.ok {
		return us(st.med)
	}
	return ""
}

// ratios gives a/b on CPU time and on wall time, for two measures whose
// medians are under the given units (cpu unit first). ok is false when
// either is missing.
func ratios(s samples, a, b, cpuUnit, wallUnit string) (cpu, wall float64, hasCPU, ok bool) {
	wa, wb := s.get(a, wallUnit), s.get(b, wallUnit)
	if !wa.ok || !wb.ok || wb.med == 0 {
		return 0, 0, false, false
	}
	wall = wa.med / wb.med
	ca, cb := s.get(a, cpuUnit), s.get(b, cpuUnit)
	if ca.ok && cb.ok && cb.med > 0 {
		return ca.med / cb.med, wall, true, true
	}
	return wall, wall, false, true
}

// judge checks a goal "value ≤ limit" on wall time, as the goals are
// stated, and shows the CPU-time value beside it: when the machine is busy,
// wall time is inflated and the CPU time tells more.
func judge(cpu, wall float64, hasCPU bool, limit float64, format, goal string) string {
	text := "wall " + fmt.Sprintf(format, wall)
	if hasCPU {
		text += ", cpu " + fmt.Sprintf(format, cpu)
	}
	return check(wall <= limit, goal+" (≤ "+fmt.Sprintf(format, limit)+"): "+text)
}

func pct(s stat) string {
	if s.n < 2 {
		return ""
	}
	return fmt.Sprintf("±%.0f%%", 50*s.spread)
}

// num formats an allocation count.
func num(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 1:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.3f", v)
}

func ratio(a, b float64) string {
	if b == 0 || math.IsNaN(a/b) {
		return ""
	}
	return fmt.Sprintf("%.2f", a/b)
}

func check(ok bool, what string) string {
	if ok {
		return "ok " + what
	}
	return "**MISSED** " + what
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: report GO_BENCH_OUTPUT COLDSTART_OUTPUT TERRAFORM_TIMINGS")
		os.Exit(2)
	}
	s := samples{}
	for i, read := range []func(string) error{
		func(p string) error { return readBench(p, s) },
		func(p string) error { return readPairs(p, s, "us") },
		func(p string) error { return readPairs(p, s, "ms") },
	} {
		if err := read(os.Args[1+i]); err != nil && !os.IsNotExist(err) {
			fmt.Fprintln(os.Stderr, "report:", err)
			os.Exit(1)
		}
	}
	t := &table{}
	perService(t, s)
	other(t, s)
	compose(t, s)
	checkRender(t, s)
	kustomize(t, s)
	platform(t, s)
	commandLine(t, s)
	server(t, s)
	terraform(t, s)
	t.print()
	fmt.Println()
	fmt.Println("wall: median wall-clock time over the runs, on which the goals are judged. cpu: median CPU time,")
	fmt.Println("user+system, including garbage collection on the other core and, for plans, every provider")
	fmt.Println("process: on an idle machine it exceeds wall time; on a busy one it is the steadier figure.")
	fmt.Println("spread: ±half the range (max-min) of wall time over its median. allocs: heap allocations per")
	fmt.Println("service (per expression, per render). × floor: wall time over the yaml.v3 round trip at the same N.")
}

// sizes are the scaled benchmark sizes; goals are judged at N=1000 and
// N=10000 (the performance guide).
var sizes = []string{"N=10", "N=100", "N=1000", "N=10000"}

func judged(n string) bool { return n == "N=1000" || n == "N=10000" }

func perService(t *table, s samples) {
	t.section("in process, per service: the scaled kitchen sink")
	floor := map[string]float64{}
	for _, n := range sizes {
		floor[n] = s.get("Floor_yamlv3RoundTrip/"+n, "ns/service").med
	}
	line := func(label, bench, n, goal string) {
		st := s.get(bench, "ns/service")
		if !st.ok {
			return
		}
		a := s.get(bench, "allocs/service")
		t.add(row{measure: label + ", " + n, value: us(st.med), cpu: cpuOf(s, bench, "service"), spread: pct(st), allocs: num(a.med),
			xFloor: ratio(st.med, floor[n]), goal: goal})
	}
	for _, n := range sizes {
		line("floor: yaml.v3 decode+encode of the output", "Floor_yamlv3RoundTrip/"+n, n, "")
	}
	line("yaml.v3 encode only", "Floor_yamlv3EncodeOnly/N=10000", "N=10000", "")
	line("encoding/json of the same data", "Floor_encodingJSON/N=10000", "N=10000", "")
	for _, n := range sizes {
		line("baseline: hand-written CEL, values", "Baseline_handwrittenCEL/values/"+n, n, "")
	}
	for _, n := range sizes {
		line("baseline: hand-written CEL + yaml.v3", "Baseline_handwrittenCEL/yamlv3/"+n, n, "")
	}
	for _, n := range sizes {
		goal := ""
		if c, w, hasCPU, ok := ratios(s, "Render_values/"+n, "Baseline_handwrittenCEL/values/"+n, "cpu-ns/service", "ns/service"); ok && judged(n) {
			goal = judge(c, w, hasCPU, 2, "%.2f×", "goal 1, × baseline")
		}
		line("celyaml Render, values only (functions)", "Render_values/"+n, n, goal)
	}
	for _, n := range sizes {
		goal := ""
		if c, w, hasCPU, ok := ratios(s, "Render_yaml/"+n, "Floor_yamlv3RoundTrip/"+n, "cpu-ns/service", "ns/service"); ok && judged(n) {
			goal = judge(c, w, hasCPU, 0.7, "%.2f×", "goal 2, × floor")
			if (hasCPU && c <= 0.35) || (!hasCPU && w <= 0.35) {
				goal += "; stretch 0.35 met"
			}
		}
		line("celyaml Render + YAML (data source)", "Render_yaml/"+n, n, goal)
	}
	for _, n := range sizes {
		line("celyaml YAML emitter only", "Emit_yaml/"+n, n, "")
	}
	for _, n := range sizes {
		line("celyaml JSON emitter only", "Emit_json/"+n, n, "")
	}
	for _, n := range sizes {
		line("6-deep nesting, render + YAML", "Render_deepNesting/"+n, n, "")
	}
	t.section("scaling from N=1000 to N=10000: total time grows × (goal 3: ≤ 10.5)")
	for _, g := range []struct{ label, small, large, unit string }{
		{"values only", "Render_values/N=1000", "Render_values/N=10000", "service"},
		{"render + YAML", "Render_yaml/N=1000", "Render_yaml/N=10000", "service"},
		{"6-deep nesting", "Render_deepNesting/N=1000", "Render_deepNesting/N=10000", "service"},
		{"distinct expressions in one template, 1,000 → 10,000", "Render_thousandExpressions/exprs=1000", "Render_thousandExpressions/exprs=10000", "expr"},
	} {
		c, w, hasCPU, ok := ratios(s, g.large, g.small, "cpu-ns/"+g.unit, "ns/"+g.unit)
		if !ok {
			continue
		}
		r := row{measure: g.label, value: fmt.Sprintf("×%.2f", 10*w), goal: judge(10*c, 10*w, hasCPU, 10.5, "×%.2f", "goal 3")}
		if g.unit == "expr" {
			// Not one of goal 3's two paths: the number of distinct
			// programs, which also measures how they fit in the CPU caches.
			r.goal = "(no goal: the cache at scale)"
		}
		if hasCPU {
			r.cpu = fmt.Sprintf("×%.2f", 10*c)
		}
		t.add(r)
	}
}

func other(t *table, s samples) {
	t.section("program cache and cold start")
	for _, n := range []string{"1000", "10000"} {
		st := s.get("Render_thousandExpressions/exprs="+n, "ns/expr")
		if st.ok {
			a := s.get("Render_thousandExpressions/exprs="+n, "allocs/expr")
			t.add(row{measure: n + " distinct expressions, warm cache, per expression", value: us(st.med),
				cpu: cpuOf(s, "Render_thousandExpressions/exprs="+n, "expr"), spread: pct(st), allocs: num(a.med)})
		}
	}
	if st := s.get("FirstRender_50expressions", "ns/render"); st.ok {
		a := s.get("FirstRender_50expressions", "allocs/render")
		t.add(row{measure: "first render, fresh engine, new template of 50 expressions", value: us(st.med), spread: pct(st),
			allocs: num(a.med), goal: check(st.med < 20e6, "goal 5 (< 20 ms)")})
	}
	for _, c := range []struct{ key, label, goal string }{
		{"env_build_us", "fresh process: CEL environment build (once, lazily)", ""},
		{"first_eval_us", "fresh process: first Eval (environment + compile)", ""},
		{"first_render50_us", "fresh process: first render of 50 expressions", "goal 5 (< 20 ms)"},
		{"first_kitchen_us", "fresh process: first kitchen-sink render, 20 services", ""},
	} {
		st := s.get(c.key, "us")
		if !st.ok {
			continue
		}
		r := row{measure: c.label, value: us(st.med * 1e3), spread: pct(st)}
		if c.goal != "" {
			r.goal = check(st.med < 20e3, c.goal)
		}
		t.add(r)
	}
}

// commandLine reports the celyaml command as whole processes (the CLI guide's
// performance figures): the N=10000 render against the yaml.v3 floor process, and a
// ten-line template with its package initialisation.
func commandLine(t *table, s samples) {
	floor := s.get("cli_floor_10000", "ms")
	if !floor.ok {
		return
	}
	t.section("the celyaml command, whole processes")
	ms := func(v float64) string { return fmt.Sprintf("%.0f ms", v) }
	row1 := func(label, key, goal string) {
		if st := s.get(key, "ms"); st.ok {
			r := row{measure: label, value: ms(st.med), spread: pct(st), xFloor: ratio(st.med, floor.med), goal: goal}
			if c := s.get("cpu"+key, "ms"); c.ok {
				r.cpu = ms(c.med)
			}
			t.add(r)
		}
	}
	row1("floor: yaml.v3 reads and writes the N=10000 output, one process", "cli_floor_10000", "")
	goal := ""
	if r := s.get("cli_render_10000", "ms"); r.ok {
		goal = check(r.med/floor.med < 0.5, fmt.Sprintf("CLI goal, × the floor process (< 0.50×): %.2f×", r.med/floor.med))
	}
	row1("celyaml render of the N=10000 kitchen sink, one process", "cli_render_10000", goal)
	if plain, schemas := s.get("cpucli_deploy", "ms"), s.get("cpucli_deploy_schemas", "ms"); plain.ok && schemas.ok {
		row1("celyaml render of one Deployment, one process", "cli_deploy", "")
		row1("the same with --schemas (saved apps/v1 and core/v1 OpenAPI)", "cli_deploy_schemas",
			check(schemas.med-plain.med <= 300, fmt.Sprintf("start-up goal, CPU above the render (≤ 300 ms): %.0f ms, %.2f× the render", schemas.med-plain.med, schemas.med/plain.med)))
		if builtins := s.get("cpucli_deploy_builtins", "ms"); builtins.ok {
			row1("the same with the built-in schemas (--schemas of an empty folder)", "cli_deploy_builtins",
				check(builtins.med-plain.med <= 300, fmt.Sprintf("start-up goal, CPU above the render (≤ 300 ms): %.0f ms, %.2f× the render", builtins.med-plain.med, builtins.med/plain.med)))
		}
		if kv := s.get("cpukubectl_validate_deploy", "ms"); kv.ok {
			row1("kubectl-validate of the rendered Deployment, same files", "kubectl_validate_deploy",
				fmt.Sprintf("CPU: --schemas run %.2f× kubectl-validate's", schemas.med/kv.med))
		}
	}
	if plain, one := s.get("cpucli_crd_plain", "ms"), s.get("cpucli_crd_one", "ms"); plain.ok && one.ok {
		row1("celyaml render of one Gateway, one process", "cli_crd_plain", "")
		row1("the same with --schemas of 74 released CRD files (76 CRDs, 7 projects), cache warm", "cli_crd_one",
			check(one.med-plain.med <= 100, fmt.Sprintf("start-up goal, CPU above the render (≤ 100 ms): %.0f ms", one.med-plain.med)))
		row1("the same, cache cold (a new cache folder)", "cli_crd_one_cold", "")
		if mixed := s.get("cpucli_crd_mixed300", "ms"); mixed.ok {
			row1("300 documents of mixed kinds against the same CRDs, one call", "cli_crd_mixed300",
				check(mixed.med <= 1500, fmt.Sprintf("goal, CPU (≤ 1.5 s): %.0f ms", mixed.med)))
		}
	}
	// $chart against helm template: no floor of their own, the goal is
	// the CPU ratio.
	chartRow := func(label, key, goal string) {
		if st := s.get(key, "ms"); st.ok {
			t.add(row{measure: label, value: ms(st.med), cpu: ms(s.get("cpu"+key, "ms").med), spread: pct(st), goal: goal})
		}
	}
	if ch := s.get("cpuchart_celyaml", "ms"); ch.ok {
		docs := s.get("chart_documents", "ms")
		chartRow(fmt.Sprintf("celyaml render of $chart: cert-manager's chart from its module zip (%.0f documents), one process", docs.med), "chart_celyaml", "")
		if h := s.get("cpuchart_helm", "ms"); h.ok {
			chartRow("helm template of the same chart and values, one process", "chart_helm",
				check(ch.med <= h.med, fmt.Sprintf("$chart goal, CPU × helm template's (≤ 1×): %.2f×", ch.med/h.med)))
		}
	}
	ten := s.get("cli_render_ten", "ms")
	goal = ""
	if c := s.get("cpucli_render_ten", "ms"); c.ok {
		goal = check(c.med <= 30, fmt.Sprintf("launch goal, CPU (≤ 30 ms): %.0f ms", c.med))
	}
	row1("celyaml render of a ten-line template, one process", "cli_render_ten", goal)
	if it := s.get("cli_inittrace", "ms"); it.ok && ten.ok {
		t.add(row{measure: "  of which package initialisation (GODEBUG=inittrace=1, summed)", value: fmt.Sprintf("%.1f ms", it.med),
			spread: pct(it), goal: fmt.Sprintf("%.0f%% of the run", 100*it.med/ten.med)})
	}
}

// server reports the provider's share of one call on the protocol,
// against the engine's own render in the same run (per-call goal 1).
func server(t *table, s samples) {
	render := s.get("Server_call/engine_render", "ns/op")
	if !render.ok {
		return
	}
	t.section("the provider's share of a call: protocol bytes in to bytes out, per call")
	line := func(label, bench, goal string) {
		if st := s.get(bench, "ns/op"); st.ok {
			t.add(row{measure: label, value: us(st.med), spread: pct(st), allocs: num(s.get(bench, "allocs/op").med), goal: goal})
		}
	}
	floor := s.get("Server_call/floor_eval_x_plus_1", "ns/op")
	rf := s.get("Server_call/render_file_kitchen_sink", "ns/op")
	line("engine alone: render the kitchen sink, 20 services", "Server_call/engine_render", "")
	line("call floor: eval(\"x + 1\")", "Server_call/floor_eval_x_plus_1", "")
	line("eval(\"size(services)\") with the 20-service context", "Server_call/eval_size_services", "")
	goal := ""
	if rf.ok && floor.ok {
		limit := floor.med + 2*render.med
		goal = check(rf.med <= limit, fmt.Sprintf("per-call goal 1, ≤ floor + 2× render = %s: %.2f× render above the floor", us(limit), (rf.med-floor.med)/render.med))
	}
	line("render_file() of the kitchen sink, same context", "Server_call/render_file_kitchen_sink", goal)
	rfloor := s.get("Server_read/floor_one_line", "ns/op")
	rd := s.get("Server_read/kitchen_sink", "ns/op")
	line("read floor: celyaml_render of a one-line template", "Server_read/floor_one_line", "")
	goal = ""
	if rd.ok && rfloor.ok {
		limit := rfloor.med + 3*render.med
		goal = check(rd.med <= limit, fmt.Sprintf("per-call goal 1, ≤ floor + 3× render = %s: %.2f× render above the floor", us(limit), (rd.med-rfloor.med)/render.med))
	}
	line("celyaml_render read of the kitchen sink, same context", "Server_read/kitchen_sink", goal)
	// Typing unknowns from the kinds' schemas (the unknown-values guide),
	// against the same render at plan without it.
	if plain, typed := s.get("Server_kindTyping/N=200/render", "ns/op"), s.get("Server_kindTyping/N=200/render_and_type", "ns/op"); plain.ok && typed.ok {
		line("render at plan: 200 Deployments with unknown leaves", "Server_kindTyping/N=200/render", "")
		line("the same, its unknowns typed from the kinds' schemas", "Server_kindTyping/N=200/render_and_type",
			fmt.Sprintf("%.2f× the render", typed.med/plain.med))
	}
}

// perCall reports the per-call cost goals: whole plans against a text
// templatefile(), the provider's own CPU apart from Terraform's, and what
// a launch costs.
func perCall(t *table, s samples, plan func(key, label, goal string) stat, diff func(a, b string) string) {
	text := s.get("plan_many_templatefile_text", "ms")
	if !text.ok {
		return
	}
	plan("plan_many_templatefile_text", "100 templatefile() of a text template (%{ for }), 20 services each", "")
	vsText := func(key string, limit float64) string {
		w := s.get(key, "ms").med / text.med
		c, hasCPU := 0.0, false
		if a, b := s.get(strings.Replace(key, "plan_", "plancpu_", 1), "ms"), s.get("plancpu_many_templatefile_text", "ms"); a.ok && b.ok {
			c, hasCPU = a.med/b.med, true
		}
		return judge(c, w, hasCPU, limit, "%.2f×", "per-call goal 2, × text templatefile")
	}
	for _, c := range []struct {
		key, label string
		limit      float64
	}{
		{"plan_many_function", "  the same as render_file(), against the text template", 2.0},
		{"plan_many_celyaml", "  the same as celyaml_render, against the text template", 2.5},
	} {
		if st := s.get(c.key, "ms"); st.ok {
			t.add(row{measure: c.label, value: fmt.Sprintf("%.2f×", st.med/text.med), goal: vsText(c.key, c.limit)})
		}
	}
	for _, c := range []struct{ key, label string }{
		{"many_function", "100 render_file()"},
		{"many_celyaml", "100 celyaml_render"},
		{"one_eval", "one eval()"},
		{"many_eval", "100 eval(\"x + 1\")"},
		{"many_celyaml_oneline", "100 celyaml_render of a one-line template"},
	} {
		p, tf := s.get("providercpu_"+c.key, "ms"), s.get("tfcpu_"+c.key, "ms")
		if !p.ok || !tf.ok {
			continue
		}
		t.add(row{measure: c.label + ", reattached provider: provider CPU / Terraform CPU per plan",
			value: fmt.Sprintf("%.0f ms", p.med), cpu: fmt.Sprintf("%.0f ms", tf.med), spread: pct(p)})
	}
	// Per-call goal 3: what a call of real work costs the provider against
	// a trivial one, both reattached (no launch counted).
	for _, c := range []struct {
		key, floor, label string
		limit             float64
		renders           float64 // in a plan: Terraform calls a function twice (validation, plan), reads once
	}{
		{"many_function", "many_eval", "  100 render_file() against 100 eval(\"x + 1\"), provider CPU", 2.5, 200},
		{"many_celyaml", "many_celyaml_oneline", "  100 celyaml_render of the kitchen sink against 100 of a one-line template, provider CPU", 3, 100},
	} {
		a, b := s.get("providercpu_"+c.key, "ms"), s.get("providercpu_"+c.floor, "ms")
		if !a.ok || !b.ok || b.med <= 0 {
			continue
		}
		r := a.med / b.med
		t.add(row{measure: c.label, value: fmt.Sprintf("%.2f×", r),
			goal: check(r <= c.limit, fmt.Sprintf("per-call goal 3, × the trivial call (≤ %.1f×): %.2f×", c.limit, r))})
		// Its floor: the trivial calls' plan plus the engine's render
		// alone (in process) for each render the plan makes, as if a call
		// cost nothing else.
		if render := s.get("Server_call/engine_render", "ns/op"); render.ok {
			f := (b.med + c.renders*render.med/1e6) / b.med
			t.add(row{measure: fmt.Sprintf("    its floor: the trivial plan plus %.0f in-process renders alone", c.renders), value: fmt.Sprintf("%.2f×", f),
				goal: "(no goal: no protocol, no decoding, no encoding)"})
		}
	}
	if e, n := s.get("plan_one_eval", "ms"), s.get("plan_one_noop", "ms"); e.ok && n.ok {
		plan("plan_one_eval", "one eval() of celyaml", "launch: against one data source of the empty provider: "+diff("plan_one_eval", "plan_one_noop"))
	}
	if b := s.get("binary_bytes", "ms"); b.ok {
		t.add(row{measure: "provider binary size", value: fmt.Sprintf("%.1f MB", b.med/1e6),
			goal: check(b.med <= 90e6, "size goal (≤ 90 MB, or its reason in the note)")})
	}
	if it := s.get("inittrace_ms", "ms"); it.ok {
		t.add(row{measure: "package initialisation per launch (GODEBUG=inittrace=1, summed)", value: fmt.Sprintf("%.1f ms", it.med), spread: pct(it),
			goal: check(it.med <= 10, fmt.Sprintf("launch goal (≤ 10 ms): %.1f ms", it.med))})
	}
	// Its floors: celyaml's own packages' share of it (the rest is its
	// libraries': cel-go, the Kubernetes libraries, Helm's SDK,
	// jsonschema), and the empty framework provider's sum.
	for _, c := range []struct{ key, label string }{
		{"inittrace_own_ms", "  of which celyaml's own packages (the rest: its libraries)"},
		{"inittrace_empty_ms", "  the same, the empty framework provider"},
	} {
		if it := s.get(c.key, "ms"); it.ok {
			t.add(row{measure: c.label, value: fmt.Sprintf("%.2f ms", it.med), spread: pct(it), goal: "(no goal: the launch goal's floors)"})
		}
	}
}

// compose reports overlays and the merge rule (the compose guide's goals).
func compose(t *table, s samples) {
	without := s.get("Overlay_stream/without/N=1000", "ns/document")
	if !without.ok {
		return
	}
	t.section("compose: overlays and the merge rule")
	line := func(label, bench, unit, goal string) {
		st := s.get(bench, "ns/"+unit)
		if !st.ok {
			return
		}
		t.add(row{measure: label, value: us(st.med), cpu: cpuOf(s, bench, unit), spread: pct(st),
			allocs: num(s.get(bench, "allocs/"+unit).med), goal: goal})
	}
	line("1,000-document stream, per document", "Overlay_stream/without/N=1000", "document", "")
	for _, o := range []struct{ bench, label string }{
		{"labels", "the same with an overlay labelling every document"},
		{"with", "the same with an overlay making five edits in every document, a list edit among them"},
	} {
		goal := ""
		if c, w, hasCPU, ok := ratios(s, "Overlay_stream/"+o.bench+"/N=1000", "Overlay_stream/without/N=1000", "cpu-ns/document", "ns/document"); ok {
			goal = judge(c, w, hasCPU, 1.5, "%.2f×", "× the stream without it")
		}
		line(o.label, "Overlay_stream/"+o.bench+"/N=1000", "document", goal)
	}
	for _, n := range []string{"N=100", "N=1000", "N=10000"} {
		goal := ""
		if n == "N=10000" {
			if c, w, hasCPU, ok := ratios(s, "Merge_patch/N=10000", "Merge_patch/N=100", "cpu-ns/key", "ns/key"); ok {
				goal = judge(c, w, hasCPU, 1.5, "%.2f×", "linear: per key × N=100")
			}
		}
		line("merge rule, per key of over, "+n, "Merge_patch/"+n, "key", goal)
	}
}

// kustomize reports celyaml against kustomize's own library on the same
// 3,363-object bundle with every transform (internal/kustomize).
func kustomize(t *table, s samples) {
	const c, k = "Kustomize_3363/celyaml", "Kustomize_3363/kustomize"
	if !s.get(c, "ns/op").ok || !s.get(k, "ns/op").ok {
		return
	}
	t.section("transforms: 3,363 objects, every transform, per build")
	for _, r := range []struct{ bench, label string }{
		{c, "celyaml render (a new engine, as each command: parse, render, YAML out)"},
		{k, "kustomize build (its library, krusty, in memory)"},
	} {
		st := s.get(r.bench, "ns/op")
		goal := ""
		if r.bench == k {
			if cpu, wall, hasCPU, ok := ratios(s, k, c, "cpu-ns/op", "ns/op"); ok {
				goal = fmt.Sprintf("%.1f× celyaml's", wall)
				if hasCPU {
					goal = fmt.Sprintf("%.1f× celyaml's cpu", cpu)
				}
			}
		}
		t.add(row{measure: r.label, value: us(st.med), cpu: cpuOf(s, r.bench, "op"), spread: pct(st),
			allocs: num(s.get(r.bench, "allocs/op").med), goal: goal})
	}
}

// platform reports fifteen and sixty argo-cd-sized bundles rendered
// under the default limits (internal/kustomize BenchmarkPlatform): time,
// memory, and how the sixty scale against the fifteen (linear is 4×).
func platform(t *table, s samples) {
	const b15, b60 = "Platform/argocd=15", "Platform/argocd=60"
	if !s.get(b60, "ns/op").ok {
		return
	}
	t.section("limits: a platform of argo-cd bundles, every transform, default limits")
	for _, r := range []struct{ bench, label string }{
		{b15, "15 copies (where the old limits stopped)"},
		{b60, "60 copies (2,460 objects, 4,000,000 nodes)"},
	} {
		st := s.get(r.bench, "ns/op")
		if !st.ok {
			continue
		}
		goal := fmt.Sprintf("live heap %s MiB, peak RSS %s MiB, output %s MiB",
			num(s.get(r.bench, "heap-MiB").med), num(s.get(r.bench, "peak-MiB").med), num(s.get(r.bench, "out-MiB").med))
		if r.bench == b60 {
			if c60, c15 := s.get(b60, "cpu-ns/op"), s.get(b15, "cpu-ns/op"); c60.ok && c15.ok && c15.med > 0 {
				goal += fmt.Sprintf("; %.1f× the 15's cpu (linear: 4×)", c60.med/c15.med)
			}
		}
		t.add(row{measure: r.label, value: us(st.med), cpu: cpuOf(s, r.bench, "op"), spread: pct(st),
			allocs: num(s.get(r.bench, "allocs/op").med), goal: goal})
	}
}

func terraform(t *table, s samples) {
	tf := s.get("plan_many_templatefile", "ms")
	if !tf.ok && !s.get("plan_empty", "ms").ok {
		return
	}
	t.section("terraform plan, wall time per plan")
	ms := func(v float64) string { return fmt.Sprintf("%.0f ms", v) }
	plan := func(key, label, goal string) stat {
		st := s.get(key, "ms")
		if !st.ok {
			return st
		}
		r := row{measure: label, value: ms(st.med), spread: pct(st), goal: goal}
		if c := s.get(strings.Replace(key, "plan_", "plancpu_", 1), "ms"); c.ok {
			r.cpu = ms(c.med)
		}
		if tf.ok {
			r.xTemplatefile = ratio(st.med, tf.med)
		}
		t.add(r)
		return st
	}
	plan("plan_empty", "empty configuration, no provider", "")
	noop := plan("plan_one_noop", "one data source of an empty framework provider", "")
	one := s.get("plan_one_celyaml", "ms")
	// diff describes a minus b, wall and CPU.
	diff := func(a, b string) string {
		text := fmt.Sprintf("wall %+.0f ms", s.get(a, "ms").med-s.get(b, "ms").med)
		if ca, cb := s.get(strings.Replace(a, "plan_", "plancpu_", 1), "ms"), s.get(strings.Replace(b, "plan_", "plancpu_", 1), "ms"); ca.ok && cb.ok {
			text += fmt.Sprintf(", cpu %+.0f ms", ca.med-cb.med)
		}
		return text
	}
	deps := s.get("plan_one_noop_deps", "ms")
	if deps.ok && noop.ok {
		plan("plan_one_noop_deps", "the same, the provider linked with celyaml's dependencies", "package init of the dependencies: "+diff("plan_one_noop_deps", "plan_one_noop"))
	}
	goal := ""
	if one.ok && noop.ok {
		goal = check(one.med-noop.med <= 10, "goal 5, vs the empty provider (≤ +10 ms): "+diff("plan_one_celyaml", "plan_one_noop"))
		if a, b := s.get("plancpu_one_celyaml", "ms"), s.get("plancpu_one_noop", "ms"); a.ok && b.ok {
			goal += "; " + check(a.med-b.med <= 40, fmt.Sprintf("launch goal, CPU above the empty provider (≤ +40 ms): %+.0f ms", a.med-b.med))
		}
		if deps.ok {
			goal += "; celyaml's own work: " + diff("plan_one_celyaml", "plan_one_noop_deps")
		}
	}
	plan("plan_one_celyaml", "one celyaml_render (kitchen sink, 2 services)", goal)
	plan("plan_many_noop", "100 data sources of the empty provider, same context", "")
	plan("plan_many_templatefile", "100 templatefile() + yamlencode, 20 services each", "")
	many := s.get("plan_many_celyaml", "ms")
	goal = ""
	if c, w, hasCPU, ok := ratios(s, "plan_many_celyaml", "plan_many_templatefile", "ms", "ms"); ok {
		if a, b := s.get("plancpu_many_celyaml", "ms"), s.get("plancpu_many_templatefile", "ms"); a.ok && b.ok {
			c, hasCPU = a.med/b.med, true
		}
		goal = judge(c, w, hasCPU, 1.5, "%.2f×", "goal 6, × templatefile")
	}
	plan("plan_many_celyaml", "100 celyaml_render, 20 services each", goal)
	plan("plan_many_function", "100 provider::celyaml::render_file(), 20 services each", "")
	perCall(t, s, plan, diff)
	plan("plan_merge_10k", "Terraform's merge() of two 10,000-key objects (shallow)", "")
	if m, d := s.get("plan_merge_10k", "ms"), s.get("plan_deep_merge_10k", "ms"); m.ok && d.ok {
		plan("plan_deep_merge_10k", "deep_merge() of the same two objects", diff("plan_deep_merge_10k", "plan_merge_10k")+" against merge()")
	}
	if many.ok && tf.ok {
		e := s.get("plan_empty", "ms")
		if e.ok {
			t.add(row{measure: "templatefile, per service above the empty plan", value: fmt.Sprintf("%.0f µs", (tf.med-e.med)*1e3/2000)})
			t.add(row{measure: "celyaml_render, per service above the empty plan", value: fmt.Sprintf("%.0f µs", (many.med-e.med)*1e3/2000),
				xTemplatefile: ratio(many.med-e.med, tf.med-e.med)})
			if f := s.get("plan_many_function", "ms"); f.ok {
				t.add(row{measure: "render_file(), per service above the empty plan", value: fmt.Sprintf("%.0f µs", (f.med-e.med)*1e3/2000),
					xTemplatefile: ratio(f.med-e.med, tf.med-e.med)})
			}
		}
	}
}
