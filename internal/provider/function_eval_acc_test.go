package provider

import (
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccEvalFunction_Known(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "sum" {
  value = provider::celyaml::eval("replicas * 2", { replicas = 3 })
}

output "big" {
  value = provider::celyaml::eval("n + 1", { n = 9007199254740992 })
}

output "map" {
  value = provider::celyaml::eval("{'name': name, 'ports': [80, 443]}", { name = "cart" })
}

output "quantity" {
  value = provider::celyaml::eval("quantity(limit).compareTo(quantity('1Gi')) > 0", { limit = "2Gi" })
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("sum", knownvalue.Int64Exact(6)),
				statecheck.ExpectKnownOutputValue("big", knownvalue.NumberExact(new(big.Float).SetInt64(9007199254740993))),
				statecheck.ExpectKnownOutputValue("map", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"name":  knownvalue.StringExact("cart"),
					"ports": knownvalue.TupleExact([]knownvalue.Check{knownvalue.Int64Exact(80), knownvalue.Int64Exact(443)}),
				})),
				statecheck.ExpectKnownOutputValue("quantity", knownvalue.Bool(true)),
			},
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}

func TestAccEvalFunction_Null(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "size" {
  value = provider::celyaml::eval("[1, 2, 3].size()", null)
}

output "empty" {
  value = provider::celyaml::eval("'a' + 'b'", {})
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("size", knownvalue.Int64Exact(3)),
				statecheck.ExpectKnownOutputValue("empty", knownvalue.StringExact("ab")),
			},
		}},
	})
}

// An expression that reads an unknown variable is unknown during plan; one
// that does not read it is known.
func TestAccEvalFunction_Unknown(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
resource "terraform_data" "img" {
  input = "nginx"
}

output "reads_unknown" {
  value = provider::celyaml::eval("image + ':1.27'", { image = terraform_data.img.output, n = 1 })
}

output "does_not_read_it" {
  value = provider::celyaml::eval("n + 1", { image = terraform_data.img.output, n = 1 })
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownOutputValue("reads_unknown"),
					plancheck.ExpectKnownOutputValue("does_not_read_it", knownvalue.Int64Exact(2)),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("reads_unknown", knownvalue.StringExact("nginx:1.27")),
				statecheck.ExpectKnownOutputValue("does_not_read_it", knownvalue.Int64Exact(2)),
			},
		}},
	})
}

func TestAccEvalFunction_errorShowsTheExpression(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "bad" {
  value = provider::celyaml::eval("1 + 1.0", {})
}
`,
			ExpectError: errorRe("Error in function call", "<inline>:1:1: no matching overload for int + double", "| 1 + 1.0", "| ..^", "^ marks where the expression fails."),
		}},
	})
}

// Terraform marks a function's result sensitive when an argument is: an
// output of it must say sensitive = true.
func TestAccEvalFunction_sensitiveArgumentGivesSensitiveResult(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: terraformHeader + `
output "token" {
  value = provider::celyaml::eval("'Bearer ' + token", { token = sensitive("hunter2") })
}
`,
				ExpectError: errorRe("Output refers to sensitive values"),
			},
			{
				Config: terraformHeader + `
resource "terraform_data" "header" {
  input = provider::celyaml::render("authorization:\n  $eval: \"Bearer $${{ token }}\"\n", { token = sensitive("hunter2") })
}

output "token" {
  value     = provider::celyaml::eval("'Bearer ' + token", { token = sensitive("hunter2") })
  sensitive = true
}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectSensitiveValue("terraform_data.header", tfjsonpath.New("input")),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("token", knownvalue.StringExact("Bearer hunter2")),
				},
			},
		},
	})
}
