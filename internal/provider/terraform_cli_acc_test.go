package provider

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// The Terraform CLI itself, on a configuration, with this provider built
// as a binary and installed through dev_overrides (as
// scripts/with-dev-provider.sh does): what terraform-plugin-testing cannot
// show, the text of a plan, `terraform show -json`, and the TF_LOG file into
// which Terraform copies the provider's own logs.

// cliTerraform runs the Terraform CLI with the provider built once.
type cliTerraform struct {
	tf  string // the terraform binary
	rc  string // the CLI configuration with dev_overrides
	dir string // where the builds and the configurations live
}

// newCLITerraform builds the provider and writes a CLI configuration that
// overrides celyaml/celyaml with it. It skips, as the acceptance tests do,
// without TF_ACC.
func newCLITerraform(t *testing.T) *cliTerraform {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skip("acceptance tests run with TF_ACC=1")
	}
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if tf == "" {
		var err error
		if tf, err = exec.LookPath("terraform"); err != nil {
			t.Fatalf("no Terraform CLI: put terraform on PATH or set TF_ACC_TERRAFORM_PATH (%v)", err)
		}
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "terraform-provider-celyaml"), ".")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	rc := filepath.Join(dir, "terraformrc")
	conf := "provider_installation {\n  dev_overrides {\n    \"celyaml/celyaml\" = " + jsonString(bin) + "\n  }\n  direct {}\n}\n"
	if err := os.WriteFile(rc, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return &cliTerraform{tf: tf, rc: rc, dir: dir}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// cliRun is one configuration planned by the CLI.
type cliRun struct {
	Output string // plan's stdout and stderr
	Failed bool   // plan exited non-zero
	Log    string // the TF_LOG=TRACE file
	Show   string // `terraform show -json` of the plan; empty when plan failed
	dir    string
}

// plan writes files into a fresh directory and runs `terraform plan` with
// TF_LOG=TRACE into a file, then `terraform show -json` on the saved plan.
func (c *cliTerraform) plan(t *testing.T, name string, files map[string]string) cliRun {
	t.Helper()
	dir := filepath.Join(c.dir, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for f, text := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	logPath := filepath.Join(dir, "trace.log")
	env := append(os.Environ(),
		"TF_CLI_CONFIG_FILE="+c.rc,
		"TF_DATA_DIR="+filepath.Join(dir, ".terraform"),
		"CHECKPOINT_DISABLE=1",
		"TF_IN_AUTOMATION=1",
		"TF_LOG=TRACE",
		"TF_LOG_PATH="+logPath,
	)
	run := func(args ...string) (string, error) {
		cmd := exec.Command(c.tf, args...)
		cmd.Dir, cmd.Env = dir, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	r := cliRun{dir: dir}
	var err error
	r.Output, err = run("plan", "-input=false", "-no-color", "-out=plan.bin")
	r.Failed = err != nil
	if !r.Failed {
		if r.Show, err = run("show", "-json", "plan.bin"); err != nil {
			t.Fatalf("terraform show -json: %v\n%s", err, r.Show)
		}
	}
	logText, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatalf("no TF_LOG file: %v", err)
	}
	r.Log = string(logText)
	return r
}

// unmarkedJSON is `terraform show -json` without what Terraform marks
// sensitive there: the parts of every "values" that "sensitive_values"
// marks, and the value of every output marked sensitive.
func unmarkedJSON(t *testing.T, show string) string {
	t.Helper()
	var doc any
	if err := json.Unmarshal([]byte(show), &doc); err != nil {
		t.Fatalf("terraform show -json is not JSON: %v", err)
	}
	out, err := json.Marshal(dropMarked(doc))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func dropMarked(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = dropMarked(e)
		}
		for _, pair := range [][2]string{{"values", "sensitive_values"}, {"before", "before_sensitive"}, {"after", "after_sensitive"}} {
			if vals, ok := out[pair[0]]; ok {
				out[pair[0]] = withoutMarked(vals, x[pair[1]])
			}
		}
		if s, _ := x["sensitive"].(bool); s {
			delete(out, "value")
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = dropMarked(e)
		}
		return out
	}
	return v
}

// withoutMarked removes from vals what marks marks true, as Terraform
// writes sensitive_values: the same shape, true for a marked part.
func withoutMarked(vals, marks any) any {
	if m, ok := marks.(bool); ok && m {
		return "(marked)"
	}
	switch x := vals.(type) {
	case map[string]any:
		mm, _ := marks.(map[string]any)
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = withoutMarked(e, mm[k])
		}
		return out
	case []any:
		ml, _ := marks.([]any)
		out := make([]any, len(x))
		for i, e := range x {
			var m any
			if i < len(ml) {
				m = ml[i]
			}
			out[i] = withoutMarked(e, m)
		}
		return out
	}
	return vals
}
