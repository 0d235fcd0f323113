package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccManifestsFunction_Known(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "ids" {
  value = keys(provider::celyaml::manifests(provider::celyaml::render_file("${path.module}/testdata/files/app.yaml", {
    name  = "cart"
    env   = "prod"
    image = "nginx:1.27"
  })))
}

output "single" {
  value = provider::celyaml::manifests({ kind = "Namespace", metadata = { name = "prod" } })
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("ids", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("_/Service/_/cart"),
					knownvalue.StringExact("apps/Deployment/prod/cart-prod"),
				})),
				statecheck.ExpectKnownOutputValue("single", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"_/Namespace/_/prod": knownvalue.ObjectExact(map[string]knownvalue.Check{
						"kind":     knownvalue.StringExact("Namespace"),
						"metadata": knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("prod")}),
					}),
				})),
			},
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}

func TestAccManifestsFunction_Null(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "null" {
  value = provider::celyaml::manifests(null)
}

output "none" {
  value = provider::celyaml::manifests([])
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("null", knownvalue.ObjectExact(map[string]knownvalue.Check{})),
				statecheck.ExpectKnownOutputValue("none", knownvalue.ObjectExact(map[string]knownvalue.Check{})),
			},
		}},
	})
}

// for_each works over the manifests of documents rendered from a value
// that is unknown until apply: the keys are known at plan, so Terraform
// plans one instance per manifest; only the image is unknown. After apply the
// values are right and a second plan is empty.
func TestAccManifestsFunction_Unknown(t *testing.T) {
	const deploy = `terraform_data.manifest["apps/Deployment/prod/cart-prod"]`
	const svc = `terraform_data.manifest["_/Service/_/cart"]`
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
resource "terraform_data" "img" {
  input = "nginx:1.27"
}

resource "terraform_data" "manifest" {
  for_each = provider::celyaml::manifests(provider::celyaml::render_file("${path.module}/testdata/files/app.yaml", {
    name  = "cart"
    env   = "prod"
    image = terraform_data.img.output
  }))
  input = each.value
}

resource "terraform_data" "unknown_name" {
  input = provider::celyaml::manifests([{ kind = "ConfigMap", metadata = { name = terraform_data.img.output } }])
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deploy, plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction(svc, plancheck.ResourceActionCreate),
					plancheck.ExpectUnknownValue(deploy, tfjsonpath.New("input").AtMapKey("spec").AtMapKey("image")),
					plancheck.ExpectKnownValue(deploy, tfjsonpath.New("input").AtMapKey("spec").AtMapKey("replicas"), knownvalue.Int64Exact(3)),
					plancheck.ExpectKnownValue(svc, tfjsonpath.New("input").AtMapKey("metadata").AtMapKey("name"), knownvalue.StringExact("cart")),
					plancheck.ExpectUnknownValue("terraform_data.unknown_name", tfjsonpath.New("input")),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(deploy, tfjsonpath.New("output").AtMapKey("spec").AtMapKey("image"), knownvalue.StringExact("nginx:1.27")),
				statecheck.ExpectKnownValue(svc, tfjsonpath.New("output").AtMapKey("kind"), knownvalue.StringExact("Service")),
				statecheck.ExpectKnownValue("terraform_data.unknown_name", tfjsonpath.New("output"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"_/ConfigMap/_/nginx:1.27": knownvalue.ObjectExact(map[string]knownvalue.Check{
						"kind":     knownvalue.StringExact("ConfigMap"),
						"metadata": knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("nginx:1.27")}),
					}),
				})),
			},
		}},
	})
}

func TestAccManifestsFunction_duplicateIsAnError(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "dup" {
  value = provider::celyaml::manifests([
    { kind = "Service", metadata = { name = "cart" } },
    { kind = "Service", metadata = { name = "cart" } },
  ])
}
`,
			ExpectError: errorRe("Invalid function argument", `documents 0 and 1 have the same manifest ID "_/Service/_/cart" (apiVersion group, kind, metadata.namespace and metadata.name)`),
		}},
	})
}
