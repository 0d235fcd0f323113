package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// planTypoShown is how Terraform shows the check's error for
// testdata/files/plan_typo.yaml.
var planTypoShown = []string{
	"testdata/files/plan_typo.yaml:14:12: spec.replicas.$eval: undefined field 'replicaCont'; did you mean replicaCount?",
	"| ${{ values.replicaCont }}",
	"| ..........^",
}

// Through the real Terraform, a typo in a field that $schema declares
// fails `terraform plan` while the value it reads is unknown (the output
// of a terraform_data that the apply creates), where the render alone
// would give an unknown replicas and fail only at apply.
func TestAccPlanCheck_renderFileTypoFailsThePlan(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
resource "terraform_data" "values" {
  input = { replicaCount = 3 }
}

output "docs" {
  value = provider::celyaml::render_file("${path.module}/testdata/files/plan_typo.yaml", {
    values = terraform_data.values.output
  })
}
`,
			PlanOnly:    true,
			ExpectError: errorRe(planTypoShown...),
		}},
	})
}

// The data source is not read while its context holds an unknown value,
// but Terraform validates its configuration: the typo fails the plan
// there.
func TestAccPlanCheck_dataSourceTypoFailsThePlan(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
resource "terraform_data" "values" {
  input = { replicaCount = 3 }
}

data "celyaml_render" "app" {
  template_file = "${path.module}/testdata/files/plan_typo.yaml"
  context       = { values = terraform_data.values.output }
}
`,
			PlanOnly:    true,
			ExpectError: errorRe(append([]string{"Template check failed"}, planTypoShown...)...),
		}},
	})
}

// The same template with the field spelt right plans with the value
// unknown and applies: the check finds nothing to report.
func TestAccPlanCheck_correctTemplatePlansAndApplies(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
resource "terraform_data" "values" {
  input = { replicaCount = 3 }
}

output "replicas" {
  value = provider::celyaml::render(<<-EOT
    $schema:
      values:
        type: object
        properties:
          replicaCount: {type: integer}
    replicas:
      $eval: "$${{ values.replicaCount }}"
    EOT
  , { values = terraform_data.values.output }).replicas
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("replicas", knownvalue.Int64Exact(3)),
			},
		}},
	})
}
