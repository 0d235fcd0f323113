package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// Three layers, a null argument and a nested null, through Terraform:
// what merge() cannot do.
func TestAccDeepMergeFunction_layersValues(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
locals {
  defaults = { image = { repository = "nginx", tag = "latest" }, ports = [80, 8080], debug = true }
  prod     = { image = { tag = "1.27" }, ports = [443] }
}

output "merged" {
  value = provider::celyaml::deep_merge(local.defaults, null, local.prod, { debug = null })
}

output "nested_null" {
  value = provider::celyaml::deep_merge(local.defaults, { image = { tag = null } }).image
}

output "nothing_is_null" {
  value = provider::celyaml::deep_merge() == null && provider::celyaml::deep_merge(null, null) == null
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("merged", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"image": knownvalue.ObjectExact(map[string]knownvalue.Check{
						"repository": knownvalue.StringExact("nginx"),
						"tag":        knownvalue.StringExact("1.27"),
					}),
					"ports": knownvalue.TupleExact([]knownvalue.Check{knownvalue.Int64Exact(443)}),
				})),
				statecheck.ExpectKnownOutputValue("nested_null", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"repository": knownvalue.StringExact("nginx"),
				})),
				statecheck.ExpectKnownOutputValue("nothing_is_null", knownvalue.Bool(true)),
			},
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}

// An unknown leaf stays unknown at plan and the rest is known; an
// argument unknown as a whole makes the result unknown.
func TestAccDeepMergeFunction_unknownValues(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
resource "terraform_data" "image" {
  input = "registry.example/app:1.0"
}

resource "terraform_data" "values" {
  input = provider::celyaml::deep_merge(
    { image = "nginx", replicas = 2 },
    { image = terraform_data.image.output },
  )
}

resource "terraform_data" "whole" {
  input = provider::celyaml::deep_merge({ a = 1 }, terraform_data.image.output)
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue("terraform_data.values", tfjsonpath.New("input").AtMapKey("image")),
					plancheck.ExpectKnownValue("terraform_data.values", tfjsonpath.New("input").AtMapKey("replicas"), knownvalue.Int64Exact(2)),
					plancheck.ExpectUnknownValue("terraform_data.whole", tfjsonpath.New("input")),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("terraform_data.values", tfjsonpath.New("output").AtMapKey("image"), knownvalue.StringExact("registry.example/app:1.0")),
				statecheck.ExpectKnownValue("terraform_data.whole", tfjsonpath.New("output"), knownvalue.StringExact("registry.example/app:1.0")),
			},
		}},
	})
}
