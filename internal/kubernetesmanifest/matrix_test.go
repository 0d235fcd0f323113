//go:build kubernetesmanifest

package kubernetesmanifest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// The steps every variant goes through, under each CLI, in this order; a
// variant's result is the first step it fails, or ok.
const (
	stepPlan     = "plan"   // the first plan: accepted, every key known, every document created
	stepApply    = "apply"  // apply that plan
	stepLive     = "live"   // the objects on the server hold what the template says
	stepEmpty    = "empty"  // a second plan changes nothing
	stepUpdate   = "update" // new inputs: the dependent objects update in place, nothing else changes
	stepApply2   = "apply2" // apply that plan
	stepLive2    = "live2"  // the objects hold the new values
	stepEmpty2   = "empty2" // and a plan changes nothing again
	resultPassed = "ok"
)

// variant is a scenario with its inputs typed or from jsondecode, and with
// or without its $schema.
type variant struct {
	*scenario
	json, schema bool
}

// id is the HCL name of the variant (leaf_t_s); name its object names
// (leaf-t-s).
func (v variant) id() string { return strings.ReplaceAll(v.name(), "-", "_") }
func (v variant) name() string {
	s := v.scenario.name
	if v.json {
		s += "-j"
	} else {
		s += "-t"
	}
	if v.schema {
		return s + "-s"
	}
	return s + "-n"
}

// variants are every scenario's variants, or, when KUBERNETES_MANIFEST_RUN
// is set (a regular expression), those of the scenarios whose name it
// matches: KUBERNETES_MANIFEST_RUN='^if-' for the $if family alone.
func variants() []variant {
	var out []variant
	only := regexp.MustCompile(os.Getenv("KUBERNETES_MANIFEST_RUN"))
	for i := range scenarios {
		if !only.MatchString(scenarios[i].name) {
			continue
		}
		if scenarios[i].twin != "" {
			out = append(out, variant{&scenarios[i], false, false})
			continue
		}
		for _, j := range []bool{false, true} {
			for _, s := range []bool{true, false} {
				out = append(out, variant{&scenarios[i], j, s})
			}
		}
	}
	return out
}

// keepsFixed: the variant renders fixedConfigMap.
func (v variant) keepsFixed() bool { return !v.json && v.schema }

// docs are the manifest IDs the variant's template gives; changed those a
// new input updates.
func (v variant) docs() []string    { return v.ids(v.scenario.docs) }
func (v variant) changed() []string { return v.ids(v.scenario.changed) }

func (v variant) ids(ids []string) []string {
	var out []string
	for _, id := range ids {
		if v.keepsFixed() || !strings.HasSuffix(id, "@NAME@-fixed") {
			out = append(out, id)
		}
	}
	return out
}

// subst fills the placeholders of a template, a file or an ID.
func (v variant) subst(text, ns string) string {
	if !v.keepsFixed() {
		text = strings.ReplaceAll(text, fixedConfigMap, "\n")
	}
	text = strings.ReplaceAll(text, "@NS@", ns)
	text = strings.ReplaceAll(text, "@NAME@", v.name())
	var schema string
	if v.schema {
		var b strings.Builder
		b.WriteString("$schema:\n")
		for _, l := range strings.Split(v.scenario.schema, "\n") {
			b.WriteString("  " + l + "\n")
		}
		schema = strings.TrimSuffix(b.String(), "\n")
	}
	return regexp.MustCompile(`(?m)^@SCHEMA@\n`).ReplaceAllLiteralString(text, schema+"\n")
}

var inRef = regexp.MustCompile(`IN_(\w+)`)

// hcl is the variant's configuration: a variable and a terraform_data per
// input, the kubernetes_manifest resource over manifests(), and the output
// want, the manifests rendered from the variables, known at plan.
func (v variant) hcl() string {
	var b strings.Builder
	id := v.id()
	for _, in := range v.inputs {
		fmt.Fprintf(&b, "variable %q {\n  type = %s\n}\n\n", id+"_"+in.name, in.tfType)
		input := "var." + id + "_" + in.name
		if v.json {
			input = "jsonencode(" + input + ")"
		}
		fmt.Fprintf(&b, "resource \"terraform_data\" %q {\n  input = %s\n}\n\n", id+"_"+in.name, input)
	}
	if v.twin != "" {
		manifest := inRef.ReplaceAllString(v.twin, "terraform_data."+id+"_$1.output")
		fmt.Fprintf(&b, "resource \"kubernetes_manifest\" %q {\n  manifest = %s\n}\n", id, manifest)
		return b.String()
	}
	ctx := inRef.ReplaceAllStringFunc(v.context, func(m string) string {
		out := "terraform_data." + id + "_" + m[3:] + ".output"
		if v.json {
			out = "jsondecode(" + out + ")"
		}
		return out
	})
	want := inRef.ReplaceAllString(v.context, "var."+id+"_$1")
	tpl := fmt.Sprintf("\"${path.module}/%s/template.yaml\"", id)
	render := fmt.Sprintf("provider::celyaml::render_file(%s, %s)", tpl, ctx)
	if v.call != "" {
		render = strings.Replace(v.call, "RENDER", render, 1)
	}
	fmt.Fprintf(&b, "resource \"kubernetes_manifest\" %q {\n  for_each = provider::celyaml::manifests(%s)\n  manifest = each.value\n}\n\n", id, render)
	fmt.Fprintf(&b, "output %q {\n  value = provider::celyaml::manifests(provider::celyaml::render_file(%s, %s))\n}\n", "want_"+id, tpl, want)
	return b.String()
}

// vars are the variables of one round (1 or 2).
func (v variant) vars(round int) map[string]any {
	out := map[string]any{}
	for _, in := range v.inputs {
		if round == 1 {
			out[v.id()+"_"+in.name] = in.round1
		} else {
			out[v.id()+"_"+in.name] = in.round2
		}
	}
	return out
}

// cli is Terraform or OpenTofu, and where it runs the matrix.
type cli struct {
	name, bin, dir, ns string
	env                []string
}

// run runs the CLI in its directory; with -json among args, the output is
// its JSON lines.
func (c *cli) run(args ...string) ([]byte, error) {
	cmd := exec.Command(c.bin, args...)
	cmd.Dir = c.dir
	cmd.Env = c.env
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	return out.Bytes(), err
}

// event is one line of the CLI's -json output: a diagnostic or a planned
// change.
type event struct {
	Type       string `json:"type"`
	Diagnostic *struct {
		Severity string `json:"severity"`
		Summary  string `json:"summary"`
		Detail   string `json:"detail"`
		Address  string `json:"address"`
		Range    *struct {
			Filename string `json:"filename"`
		} `json:"range"`
	} `json:"diagnostic"`
	Change *struct {
		Resource struct {
			Addr         string `json:"addr"`
			ResourceType string `json:"resource_type"`
			ResourceName string `json:"resource_name"`
			ResourceKey  any    `json:"resource_key"`
		} `json:"resource"`
		Action string `json:"action"`
	} `json:"change"`
}

// parallelism is the CLI's -parallelism: most of a resource's time is
// spent waiting for the API server, so more than the default 10 at once.
const parallelism = "24"

// matrix runs every variant under one CLI.
type matrix struct {
	t       *testing.T
	cli     *cli
	cluster *cluster
	all     []variant
	active  map[string]variant // by id: the variants still in the configuration
	result  map[string]string  // by id: the first step failed, with why
}

func (m *matrix) fail(id, step, why string) {
	if _, done := m.result[id]; !done {
		m.result[id] = step + ": " + why
	}
}

// write writes the configuration of the active variants and the two
// rounds' variables.
func (m *matrix) write() {
	t := m.t
	entries, _ := filepath.Glob(filepath.Join(m.cli.dir, "*.tf"))
	for _, e := range entries {
		os.Remove(e)
	}
	main := `terraform {
  required_providers {
    celyaml = {
      source = "celyaml/celyaml"
    }
    kubernetes = {
      source = "hashicorp/kubernetes"
    }
  }
}

provider "kubernetes" {}
`
	write(t, filepath.Join(m.cli.dir, "main.tf"), main)
	write(t, filepath.Join(m.cli.dir, "crd.yaml"), crdText)
	r1, r2 := map[string]any{}, map[string]any{}
	for _, v := range m.all {
		if _, ok := m.active[v.id()]; !ok {
			continue
		}
		write(t, filepath.Join(m.cli.dir, v.id()+".tf"), v.subst(v.hcl(), m.cli.ns))
		if v.twin == "" {
			write(t, filepath.Join(m.cli.dir, v.id(), "template.yaml"), v.subst(v.template, m.cli.ns))
		}
		for name, text := range v.files {
			write(t, filepath.Join(m.cli.dir, v.id(), name), v.subst(text, m.cli.ns))
		}
		for k, x := range v.vars(1) {
			r1[k] = x
		}
		for k, x := range v.vars(2) {
			r2[k] = x
		}
	}
	for name, vars := range map[string]map[string]any{"round1.tfvars.json": r1, "round2.tfvars.json": r2} {
		b, err := json.MarshalIndent(vars, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(m.cli.dir, name), string(b))
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// owner is the variant a diagnostic or change is about: by the file of
// its range (each variant's configuration is a file of its own), else by
// the resource address (kubernetes_manifest.ID, terraform_data.ID_INPUT).
func (m *matrix) owner(file, addr string) string {
	if file != "" {
		id := strings.TrimSuffix(filepath.Base(file), ".tf")
		for _, v := range m.all {
			if v.id() == id {
				return id
			}
		}
	}
	addr = strings.TrimPrefix(addr, "kubernetes_manifest.")
	addr = strings.TrimPrefix(addr, "terraform_data.")
	if i := strings.IndexByte(addr, '['); i >= 0 {
		addr = addr[:i]
	}
	best := ""
	for _, v := range m.all {
		id := v.id()
		if (addr == id || strings.HasPrefix(addr, id+"_")) && len(id) > len(best) {
			best = id
		}
	}
	return best
}

// events parses the -json output of a run.
func events(out []byte) []event {
	var evs []event
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Type != "" {
			evs = append(evs, e)
		}
	}
	return evs
}

// errorsByVariant returns each variant's error diagnostics (summary: the
// first line of detail), and whether an error belongs to no variant.
func (m *matrix) errorsByVariant(evs []event) (map[string]string, []string) {
	errs := map[string]string{}
	var stray []string
	for _, e := range evs {
		d := e.Diagnostic
		if e.Type != "diagnostic" || d == nil || d.Severity != "error" {
			continue
		}
		file := ""
		if d.Range != nil {
			file = d.Range.Filename
		}
		text := d.Summary + ": " + firstLines(d.Detail)
		id := m.owner(file, d.Address)
		if id == "" {
			stray = append(stray, text)
			continue
		}
		// kubernetes_manifest heads its errors with one that says the
		// details follow: the first of those is the one to show.
		if prev, ok := errs[id]; !ok || strings.HasPrefix(prev, manifestHeader) && !strings.HasPrefix(text, manifestHeader) {
			errs[id] = text
		}
	}
	return errs, stray
}

const manifestHeader = "Manifest configuration incompatible with resource schema"

// firstLines is the first line of a diagnostic's detail, cut at 160
// bytes (kubernetes_manifest's details dump whole tftypes values).
func firstLines(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}

// plan plans with the round's variables into file; a variant whose
// configuration fails to plan fails step and leaves the configuration (its
// objects are then planned for deletion, which is not held against the
// others), and the plan is made again without it. It returns the changes
// planned, by variant.
func (m *matrix) plan(step string, round int, file string) map[string][]string {
	t := m.t
	for {
		m.write()
		args := []string{"plan", "-json", "-input=false", "-parallelism=" + parallelism, "-var-file=" + fmt.Sprintf("round%d.tfvars.json", round)}
		if file != "" {
			args = append(args, "-out="+file)
		}
		out, err := m.cli.run(args...)
		evs := events(out)
		errs, stray := m.errorsByVariant(evs)
		if len(stray) > 0 {
			t.Fatalf("%s %s (%s): errors that belong to no scenario:\n%s\n%s", m.cli.name, step, strings.Join(args, " "), strings.Join(stray, "\n"), out)
		}
		if err == nil && len(errs) == 0 {
			changes := map[string][]string{}
			for _, e := range evs {
				if e.Type != "planned_change" || e.Change == nil {
					continue
				}
				id := m.owner("", e.Change.Resource.Addr)
				changes[id] = append(changes[id], e.Change.Action+" "+e.Change.Resource.Addr)
			}
			return changes
		}
		if len(errs) == 0 {
			t.Fatalf("%s %s failed without an error diagnostic: %v\n%s", m.cli.name, step, err, out)
		}
		for id, why := range errs {
			m.fail(id, step, why)
			delete(m.active, id)
		}
	}
}

// apply applies a saved plan; a variant an error names fails step.
func (m *matrix) apply(step, file string) {
	out, err := m.cli.run("apply", "-json", "-input=false", "-auto-approve", "-parallelism="+parallelism, file)
	if err == nil {
		return
	}
	errs, stray := m.errorsByVariant(events(out))
	if len(stray) > 0 || len(errs) == 0 {
		m.t.Fatalf("%s %s: %v\n%s", m.cli.name, step, err, out)
	}
	for id, why := range errs {
		m.fail(id, step, why)
	}
}

// checkLive compares the server's objects with the output want of each
// variant (what the template gives for the round's values, rendered at
// plan from the variables), and the variant's checks.
func (m *matrix) checkLive(step string, round int) {
	ctx := context.Background()
	b, err := os.ReadFile(filepath.Join(m.cli.dir, "terraform.tfstate"))
	if err != nil {
		m.t.Fatal(err)
	}
	var state struct {
		Outputs map[string]struct {
			Value map[string]map[string]any `json:"value"`
		} `json:"outputs"`
	}
	if err := json.Unmarshal(b, &state); err != nil {
		m.t.Fatal(err)
	}
	for _, v := range m.all {
		id := v.id()
		if _, ok := m.active[id]; !ok {
			continue
		}
		want, ok := state.Outputs["want_"+id]
		if !ok {
			m.fail(id, step, "no output want_"+id+" in the state")
			continue
		}
		live := map[string]map[string]any{}
		var problems []string
		for key, doc := range want.Value {
			got, err := m.cluster.live(ctx, doc)
			if err != nil {
				problems = append(problems, key+": "+err.Error())
				continue
			}
			live[key] = got
			for _, p := range missing("", doc, got) {
				problems = append(problems, key+": "+p)
			}
		}
		for _, c := range v.checks {
			if !v.keepsFixed() && strings.HasSuffix(c.id, "@NAME@-fixed") {
				continue
			}
			key := v.subst(c.id, m.cli.ns)
			exp := c.round1
			if round == 2 {
				exp = c.round2
			}
			var w any
			if err := json.Unmarshal([]byte(exp), &w); err != nil {
				m.t.Fatalf("check %s %s: %v", key, c.path, err)
			}
			if got := at(live[key], c.path); !jsonEqual(got, w) {
				problems = append(problems, fmt.Sprintf("%s: %s is %s, want %s", key, c.path, short(got), exp))
			}
		}
		if len(problems) > 0 {
			sort.Strings(problems)
			m.fail(id, step, strings.Join(problems, "; "))
		}
	}
}

// expectChanges compares the changes planned for each variant with what
// it expects: for the first plan, every document created under its key and
// each input's terraform_data; for a plan after new inputs, the documents
// of changed and the inputs updated in place; for a plan with the same
// inputs, nothing.
func (m *matrix) expectChanges(step string, changes map[string][]string, kind string) {
	for id, c := range changes {
		if _, ok := m.active[id]; !ok && id != "" {
			continue // a variant that failed and left: its objects go
		}
		if id == "" {
			m.t.Errorf("%s %s: changes of no scenario: %v", m.cli.name, step, c)
		}
	}
	for _, v := range m.all {
		id := v.id()
		if _, ok := m.active[id]; !ok {
			continue
		}
		var want []string
		switch kind {
		case "create":
			for _, in := range v.inputs {
				want = append(want, fmt.Sprintf("create terraform_data.%s_%s", id, in.name))
			}
			for _, d := range v.docs() {
				want = append(want, fmt.Sprintf("create kubernetes_manifest.%s[%q]", id, v.subst(d, m.cli.ns)))
			}
		case "update":
			for _, in := range v.inputs {
				want = append(want, fmt.Sprintf("update terraform_data.%s_%s", id, in.name))
			}
			for _, d := range v.changed() {
				want = append(want, fmt.Sprintf("update kubernetes_manifest.%s[%q]", id, v.subst(d, m.cli.ns)))
			}
		}
		got := append([]string(nil), changes[id]...)
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			m.fail(id, step, fmt.Sprintf("planned [%s], want [%s]", strings.Join(got, ", "), strings.Join(want, ", ")))
		}
	}
}

// runMatrix takes variants through every step under one CLI, in one root
// configuration; a step with no variant left is not run.
func runMatrix(t *testing.T, c *cli, cl *cluster, vs []variant) map[string]string {
	m := &matrix{t: t, cli: c, cluster: cl, all: vs, active: map[string]variant{}, result: map[string]string{}}
	for _, v := range m.all {
		m.active[v.id()] = v
	}
	timed := func(step string, f func()) {
		if len(m.active) == 0 {
			return
		}
		start, n := time.Now(), len(m.active)
		f()
		t.Logf("%s: %-7s %5.1fs (%d scenarios)", c.name, step, time.Since(start).Seconds(), n)
	}
	timed(stepPlan, func() { m.expectChanges(stepPlan, m.plan(stepPlan, 1, "round1.tfplan"), "create") })
	timed(stepApply, func() { m.apply(stepApply, "round1.tfplan") })
	timed(stepLive, func() { m.checkLive(stepLive, 1) })
	timed(stepEmpty, func() { m.expectChanges(stepEmpty, m.plan(stepEmpty, 1, ""), "none") })
	timed(stepUpdate, func() { m.expectChanges(stepUpdate, m.plan(stepUpdate, 2, "round2.tfplan"), "update") })
	timed(stepApply2, func() { m.apply(stepApply2, "round2.tfplan") })
	timed(stepLive2, func() { m.checkLive(stepLive2, 2) })
	timed(stepEmpty2, func() { m.expectChanges(stepEmpty2, m.plan(stepEmpty2, 2, ""), "none") })
	for id := range m.active {
		if _, failed := m.result[id]; !failed {
			m.result[id] = resultPassed
		}
	}
	return m.result
}
