package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// to_yaml through Terraform: sorted keys, the output's quoting (where
// yamlencode leaves "yes" and "0777" plain), and unknown at plan when a
// part of the value is.
func TestAccToYAMLFunction_quotingKeyOrderAndUnknowns(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
resource "terraform_data" "image" {
  input = "nginx:1.27"
}

output "doc" {
  value = provider::celyaml::to_yaml({ zone = "eu", enabled = "yes", mode = "0777", ports = [80, 443] })
}

resource "terraform_data" "manifest" {
  input = provider::celyaml::to_yaml({ kind = "Pod", image = terraform_data.image.output })
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue("terraform_data.manifest", tfjsonpath.New("input")),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("doc", knownvalue.StringExact("enabled: \"yes\"\nmode: \"0777\"\nports:\n  - 80\n  - 443\nzone: eu\n")),
				statecheck.ExpectKnownValue("terraform_data.manifest", tfjsonpath.New("output"), knownvalue.StringExact("image: nginx:1.27\nkind: Pod\n")),
			},
		}},
	})
}
