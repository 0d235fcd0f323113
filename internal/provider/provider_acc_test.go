package provider

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// Acceptance tests run the real Terraform CLI (v1.11.4 at
// /usr/local/bin/terraform) against the provider served in-process, and
// again the OpenTofu CLI when TF_ACC_TERRAFORM_PATH names it
// (opentofu_test.go). They run with TF_ACC=1 and never download anything:
// terraform_data is built into Terraform and OpenTofu, and the provider is
// attached, not installed.

// defaultTerraform is used when TF_ACC_TERRAFORM_PATH is unset and no
// terraform is on PATH.
const defaultTerraform = "/usr/local/bin/terraform"

// terraformHeader declares the provider by its registry address, as users
// do. Test configurations start with it.
const terraformHeader = `
terraform {
  required_providers {
    celyaml = {
      source = "celyaml/celyaml"
    }
  }
}
`

// accTest runs an acceptance test case against the in-process provider.
//
// It pins the Terraform binary through TF_ACC_TERRAFORM_PATH, so that
// terraform-plugin-testing never tries to install one, and registers the
// provider as celyaml/celyaml.
//
// Terraform runs the provider in its own working directory, so relative
// paths (template_file, $include, path.module under .terraform/modules)
// resolve there. An in-process provider shares the test's working
// directory instead, so accTest moves the test process into Terraform's
// working directory whenever the provider starts, and back at the end.
// The working directory holds a symlink to this package's testdata, so
// configurations refer to fixtures as "${path.module}/testdata/...".
func accTest(t *testing.T, tc resource.TestCase) {
	t.Helper()
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		tf, err := exec.LookPath("terraform")
		if err != nil {
			tf = defaultTerraform
		}
		t.Setenv("TF_ACC_TERRAFORM_PATH", tf)
	}
	if _, err := os.Stat(os.Getenv("TF_ACC_TERRAFORM_PATH")); err != nil && os.Getenv(resource.EnvTfAcc) != "" {
		t.Fatalf("no Terraform CLI: put terraform on PATH or set TF_ACC_TERRAFORM_PATH (%v)", err)
	}
	t.Setenv("TF_ACC_PROVIDER_NAMESPACE", "celyaml")
	openTofu := prepareCLI(t)

	pkgDir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(pkgDir) // restores the package directory when the test ends
	base := t.TempDir()
	tc.WorkingDir = base
	factories := map[string]func() (tfprotov6.ProviderServer, error){
		"celyaml": func() (tfprotov6.ProviderServer, error) {
			if err := enterTerraformWorkDir(base); err != nil {
				return nil, err
			}
			return NewServer("test")(), nil
		},
	}
	// Factories on each step make terraform-plugin-testing run
	// `terraform init` with each step's configuration, which installs the
	// modules it calls. A step's own factories (a test provider beside
	// celyaml) are kept.
	for i := range tc.Steps {
		own := tc.Steps[i].ProtoV6ProviderFactories
		tc.Steps[i].ProtoV6ProviderFactories = factories
		if own != nil {
			maps.Copy(own, factories)
			tc.Steps[i].ProtoV6ProviderFactories = own
		}
	}
	// terraform-plugin-testing runs `terraform init` on a step's Config
	// string without it, so modules would not be installed; a step given as
	// a ConfigFile is initialised with its file.
	cfgDir := t.TempDir()
	emptyFinalState := needsEmptyFinalState(tc.Steps)
	for i := range tc.Steps {
		if !strings.Contains(tc.Steps[i].Config, "module \"") {
			continue
		}
		file := filepath.Join(cfgDir, fmt.Sprintf("step%d.tf", i+1))
		if err := os.WriteFile(file, []byte(tc.Steps[i].Config), 0o600); err != nil {
			t.Fatal(err)
		}
		tc.Steps[i].Config = ""
		tc.Steps[i].ConfigFile = config.StaticFile(file)
	}
	// terraform-plugin-testing reads the final state into its legacy
	// format, which supports neither modules nor for_each instances. A last
	// step with an empty configuration leaves an empty state behind.
	if emptyFinalState {
		tc.Steps = append(tc.Steps, resource.TestStep{
			Config:                   terraformHeader,
			ProtoV6ProviderFactories: factories,
		})
	}
	runAcceptance(t, tc, openTofu)
}

// needsEmptyFinalState reports whether a configuration leaves modules or
// for_each instances in the state.
func needsEmptyFinalState(steps []resource.TestStep) bool {
	for _, s := range steps {
		if strings.Contains(s.Config, "module \"") || strings.Contains(s.Config, "for_each") {
			return true
		}
	}
	return false
}

// enterTerraformWorkDir changes into the one working directory that
// terraform-plugin-testing created under base.
func enterTerraformWorkDir(base string) error {
	dirs, err := filepath.Glob(filepath.Join(base, "work*"))
	if err != nil {
		return err
	}
	if len(dirs) != 1 {
		return fmt.Errorf("expected one Terraform working directory in %s, found %d", base, len(dirs))
	}
	return os.Chdir(dirs[0])
}

// errorRe matches Terraform's error output, which wraps long lines: each
// part is literal text whose spaces match any run of white space, and the
// parts appear in order.
func errorRe(parts ...string) *regexp.Regexp {
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = strings.Join(strings.Fields(regexp.QuoteMeta(p)), `\s+`)
	}
	return regexp.MustCompile(strings.Join(quoted, `[\s\S]*`))
}
