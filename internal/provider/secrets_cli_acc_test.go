package provider

import (
	"strings"
	"testing"
)

// cliSecret is the secret these tests hand to Terraform: read from a file
// and wrapped in sensitive(), so that it is no input variable (whose value
// `terraform show -json` prints) and every value Terraform derives from it
// is marked.
const cliSecret = "HUNTER2VAR"

const cliSecretLocals = `
locals {
  pw = sensitive(trimspace(file("${path.module}/secret.txt")))
}
`

func cliFiles(config string) map[string]string {
	return map[string]string{"main.tf": terraformHeader + cliSecretLocals + config, "secret.txt": cliSecret + "\n"}
}

// assertNoSecret fails when the secret is in the plan's text, in the
// TF_LOG=TRACE file, or in what `terraform show -json` leaves unmarked.
func assertNoSecret(t *testing.T, r cliRun) {
	t.Helper()
	if strings.Contains(r.Output, cliSecret) {
		t.Errorf("the plan output shows the secret:\n%s", r.Output)
	}
	if i := strings.Index(r.Log, cliSecret); i >= 0 {
		t.Errorf("the TF_LOG file shows the secret: …%s…", r.Log[max(0, i-300):min(len(r.Log), i+100)])
	}
	if r.Show != "" {
		if u := unmarkedJSON(t, r.Show); strings.Contains(u, cliSecret) {
			t.Errorf("terraform show -json has the secret in an unmarked value:\n%s", u)
		}
	}
}

// The safe form of the README: sensitive = true, the results read from the
// sensitive_ attributes. The plan, its JSON and the trace log never show
// the secret. The form without it shows the secret and warns.
func TestAccCLI_dataSourceSensitiveHidesSecrets(t *testing.T) {
	tf := newCLITerraform(t)
	const template = `
data "celyaml_render" "app" {
  template = <<-EOT
    apiVersion: v1
    kind: Secret
    metadata:
      name: db
    stringData:
      password:
        $eval: "$${{ pw }}"
  EOT
  context = { pw = local.pw }
`
	safe := tf.plan(t, "safe", cliFiles(template+`  sensitive = true
}

resource "terraform_data" "secret" {
  for_each = toset(nonsensitive(keys(data.celyaml_render.app.sensitive_manifests)))
  input    = data.celyaml_render.app.sensitive_manifests[each.key]
}

output "yaml" {
  value     = data.celyaml_render.app.sensitive_yaml
  sensitive = true
}
`))
	if safe.Failed {
		t.Fatalf("the safe form failed:\n%s", safe.Output)
	}
	for _, want := range []string{`terraform_data.secret["_/Secret/_/db"] will be created`, "(sensitive value)"} {
		if !strings.Contains(safe.Output, want) {
			t.Errorf("the plan does not say %q:\n%s", want, safe.Output)
		}
	}
	if strings.Contains(safe.Output, "Warning: Rendered Secret data") {
		t.Errorf("the safe form warns:\n%s", safe.Output)
	}
	if !strings.Contains(safe.Show, cliSecret) {
		t.Fatalf("terraform show -json does not hold the rendered secret at all, so its absence from unmarked values proves nothing")
	}
	assertNoSecret(t, safe)

	unsafe := tf.plan(t, "unsafe", cliFiles(template+`}

output "yaml" {
  value = data.celyaml_render.app.yaml
}
`))
	if unsafe.Failed {
		t.Fatalf("the unsafe form failed:\n%s", unsafe.Output)
	}
	for _, want := range []string{"Warning: Rendered Secret data is not marked sensitive", "Set sensitive = true"} {
		if !strings.Contains(unsafe.Output, want) {
			t.Errorf("the plan does not warn %q:\n%s", want, unsafe.Output)
		}
	}
	if !strings.Contains(unsafe.Output, cliSecret) {
		t.Errorf("without sensitive = true Terraform prints the secret, which is why the warning exists; the plan no longer does:\n%s", unsafe.Output)
	}
}
