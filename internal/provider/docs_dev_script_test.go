package provider

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTerraform writes a `terraform` that answers `version -json` as
// scripts/find-terraform.sh expects and otherwise prints its arguments,
// one a line, and returns its path.
func fakeTerraform(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform")
	script := "#!/bin/sh\n" +
		"if [ \"$1\" = version ] && [ \"$2\" = -json ]; then echo '{\"terraform_version\":\"1.11.4\"}'; exit 0; fi\n" +
		"printf '%s\\n' \"$@\"\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// runDevScript runs `make ARGS` (when target is "make") or
// scripts/with-dev-provider.sh ARGS from the repository root with the
// fake terraform and a provider directory that needs no build, with
// stdout a pipe, and returns what it printed on stdout.
func runDevScript(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(),
		"TF_ACC_TERRAFORM_PATH="+fakeTerraform(t),
		"CELYAML_PROVIDER_DIR="+t.TempDir(),
		"CI=",
	)
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// Terraform run through scripts/with-dev-provider.sh, as `make example`
// runs it, gets -no-color when its output is not a terminal, so logs and
// files hold no colour codes.
func TestDevScript_terraformGetsNoColorWhenStdoutIsNotATerminal(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("# empty\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  []string
		cmd  []string
		want string
	}{
		{"pipe", nil, []string{"scripts/with-dev-provider.sh", dir, "terraform", "plan", "-input=false"},
			"plan\n-no-color\n-input=false\n"},
		{"global option first", nil, []string{"scripts/with-dev-provider.sh", dir, "terraform", "-chdir=.", "output", "yaml"},
			"-chdir=.\noutput\n-no-color\nyaml\n"},
		{"already -no-color", nil, []string{"scripts/with-dev-provider.sh", dir, "terraform", "apply", "-no-color"},
			"apply\n-no-color\n"},
		{"not terraform", nil, []string{"scripts/with-dev-provider.sh", dir, "echo", "plan"},
			"plan\n"},
		{"make example", nil, []string{"make", "-s", "example", "EX=kubernetes", "TF_CMD=apply"},
			"apply\n-no-color\n-auto-approve\n-input=false\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runDevScript(t, tc.env, tc.cmd[0], tc.cmd[1:]...)
			if got != tc.want {
				t.Errorf("%s: terraform got\n%q\nwant\n%q", strings.Join(tc.cmd, " "), got, tc.want)
			}
			if strings.Contains(got, "\x1b[") {
				t.Errorf("colour codes in the output: %q", got)
			}
		})
	}
}
