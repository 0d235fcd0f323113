package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccRenderFunction_Known(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "one" {
  value = provider::celyaml::render("name:\n  $eval: \"$${{ app }}\"\nreplicas:\n  $eval: \"$${{ n * 2 }}\"\n", { app = "cart", n = 21 })
}

output "many" {
  value = provider::celyaml::render("a: 1\n---\nb: [x, 2.5]\n", {})
}

output "none" {
  value = provider::celyaml::render("$if: \"false\"\n$then: {a: 1}\n", {})
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("one", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"name":     knownvalue.StringExact("cart"),
					"replicas": knownvalue.Int64Exact(42),
				})),
				statecheck.ExpectKnownOutputValue("many", knownvalue.TupleExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{"a": knownvalue.Int64Exact(1)}),
					knownvalue.ObjectExact(map[string]knownvalue.Check{"b": knownvalue.TupleExact([]knownvalue.Check{
						knownvalue.StringExact("x"), knownvalue.Float64Exact(2.5),
					})}),
				})),
				statecheck.ExpectKnownOutputValue("none", knownvalue.TupleExact([]knownvalue.Check{})),
			},
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}

func TestAccRenderFunction_Null(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "null" {
  value = provider::celyaml::render("n:\n  $eval: \"$${{ 40 + 2 }}\"\n", null)
}

output "empty" {
  value = provider::celyaml::render("n:\n  $eval: \"$${{ 40 + 2 }}\"\n", {})
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("null", knownvalue.ObjectExact(map[string]knownvalue.Check{"n": knownvalue.Int64Exact(42)})),
				statecheck.ExpectKnownOutputValue("empty", knownvalue.ObjectExact(map[string]knownvalue.Check{"n": knownvalue.Int64Exact(42)})),
			},
		}},
	})
}

// An $if whose condition is unknown during plan is unknown at its own node;
// the rest of the document is known. After apply the value is right and a
// second plan is empty.
func TestAccRenderFunction_Unknown(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
resource "terraform_data" "flag" {
  input = true
}

resource "terraform_data" "doc" {
  input = provider::celyaml::render(<<-EOT
    name: cart
    spec:
      replicas:
        $if: "ha"
        $then: 3
        $else: 1
      port: 80
  EOT
  , { ha = terraform_data.flag.output })
}

output "whole_template_unknown" {
  value = provider::celyaml::render(terraform_data.flag.output ? "a: 1\n" : "a: 2\n", {})
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue("terraform_data.doc", tfjsonpath.New("input").AtMapKey("spec").AtMapKey("replicas")),
					plancheck.ExpectKnownValue("terraform_data.doc", tfjsonpath.New("input").AtMapKey("spec").AtMapKey("port"), knownvalue.Int64Exact(80)),
					plancheck.ExpectKnownValue("terraform_data.doc", tfjsonpath.New("input").AtMapKey("name"), knownvalue.StringExact("cart")),
					plancheck.ExpectUnknownOutputValue("whole_template_unknown"),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("terraform_data.doc", tfjsonpath.New("output").AtMapKey("spec").AtMapKey("replicas"), knownvalue.Int64Exact(3)),
				statecheck.ExpectKnownOutputValue("whole_template_unknown", knownvalue.ObjectExact(map[string]knownvalue.Check{"a": knownvalue.Int64Exact(1)})),
			},
		}},
	})
}

// $schema checks the known parts of a context that holds unknown values,
// so a wrong known value fails the plan, before anything is applied.
func TestAccRenderFunction_schemaFailsThePlanBesideUnknowns(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
resource "terraform_data" "image" {
  input = "registry.example.com/cart:1.0"
}

output "doc" {
  value = provider::celyaml::render(<<-EOT
    $schema:
      app:
        type: object
        properties:
          replicas: {type: integer}
          image: {type: string}
    replicas:
      $eval: "$${{ app.replicas }}"
  EOT
  , { app = { replicas = "3", image = terraform_data.image.output } })
}
`,
			PlanOnly:    true,
			ExpectError: errorRe("Error in function call", "<inline>:2:3: $schema: the variables do not match the schema: app.replicas: expected integer, got string"),
		}},
	})
}

func TestAccRenderFunction_errorPointsAtTheLine(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "bad" {
  value = provider::celyaml::render("kind: x\nsum:\n  $eval: \"$${{ 1 + 1.0 }}\"\n", {})
}
`,
			ExpectError: errorRe("Error in function call", "<inline>:3:10: sum.$eval: no matching overload for int + double"),
		}},
	})
}

// render() resolves $include against Terraform's working directory.
func TestAccRenderFunction_includeFromWorkingDirectory(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "labels" {
  value = provider::celyaml::render("$include: testdata/files/parts/labels.yaml\n", { name = "cart" })
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("labels", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"app":  knownvalue.StringExact("cart"),
					"team": knownvalue.StringExact("sre"),
				})),
			},
		}},
	})
}

// A module input left unset is null in Terraform; a $schema default binds
// in its place, as it does for an absent variable.
func TestAccRenderFunction_schemaDefaultReplacesAnUnsetInput(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
variable "replicas" {
  type    = number
  default = null
}

output "doc" {
  value = provider::celyaml::render(<<-EOT
    $schema:
      replicas: {type: integer, default: 2}
    replicas:
      $eval: "$${{ replicas }}"
  EOT
  , { replicas = var.replicas })
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("doc", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"replicas": knownvalue.Int64Exact(2),
				})),
			},
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}
