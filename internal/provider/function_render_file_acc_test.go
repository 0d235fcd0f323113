package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// appDocs checks the two documents of testdata/files/app.yaml rendered with
// name = "cart", env = "prod" and the given image.
func appDocs(image knownvalue.Check) knownvalue.Check {
	return knownvalue.TupleExact([]knownvalue.Check{
		knownvalue.ObjectExact(map[string]knownvalue.Check{
			"apiVersion": knownvalue.StringExact("apps/v1"),
			"kind":       knownvalue.StringExact("Deployment"),
			"metadata": knownvalue.ObjectExact(map[string]knownvalue.Check{
				"name":      knownvalue.StringExact("cart-prod"),
				"namespace": knownvalue.StringExact("prod"),
				"labels": knownvalue.ObjectExact(map[string]knownvalue.Check{
					"app":  knownvalue.StringExact("cart"),
					"team": knownvalue.StringExact("sre"),
				}),
			}),
			"spec": knownvalue.ObjectExact(map[string]knownvalue.Check{
				"replicas": knownvalue.Int64Exact(3),
				"image":    image,
			}),
		}),
		knownvalue.ObjectExact(map[string]knownvalue.Check{
			"apiVersion": knownvalue.StringExact("v1"),
			"kind":       knownvalue.StringExact("Service"),
			"metadata":   knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("cart")}),
			"spec": knownvalue.ObjectExact(map[string]knownvalue.Check{
				"ports": knownvalue.TupleExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{"port": knownvalue.Int64Exact(80)}),
				}),
			}),
		}),
	})
}

func TestAccRenderFileFunction_Known(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "docs" {
  value = provider::celyaml::render_file("${path.module}/testdata/files/app.yaml", {
    name  = "cart"
    env   = "prod"
    image = "nginx:1.27"
  })
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("docs", appDocs(knownvalue.StringExact("nginx:1.27"))),
			},
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}

func TestAccRenderFileFunction_Null(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "static" {
  value = provider::celyaml::render_file("${path.module}/testdata/files/static.yaml", null)
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("static", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"kind":     knownvalue.StringExact("ConfigMap"),
					"metadata": knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("static")}),
					"data":     knownvalue.ObjectExact(map[string]knownvalue.Check{"size": knownvalue.Int64Exact(2048)}),
				})),
			},
		}},
	})
}

// An image that is unknown until apply leaves only the image unknown.
func TestAccRenderFileFunction_Unknown(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
resource "terraform_data" "img" {
  input = "nginx:1.27"
}

resource "terraform_data" "docs" {
  input = provider::celyaml::render_file("${path.module}/testdata/files/app.yaml", {
    name  = "cart"
    env   = "prod"
    image = terraform_data.img.output
  })
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue("terraform_data.docs", tfjsonpath.New("input").AtSliceIndex(0).AtMapKey("spec").AtMapKey("image")),
					plancheck.ExpectKnownValue("terraform_data.docs", tfjsonpath.New("input").AtSliceIndex(0).AtMapKey("spec").AtMapKey("replicas"), knownvalue.Int64Exact(3)),
					plancheck.ExpectKnownValue("terraform_data.docs", tfjsonpath.New("input").AtSliceIndex(1).AtMapKey("metadata").AtMapKey("name"), knownvalue.StringExact("cart")),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("terraform_data.docs", tfjsonpath.New("output"), appDocs(knownvalue.StringExact("nginx:1.27"))),
			},
		}},
	})
}

func TestAccRenderFileFunction_errorPointsAtTheLine(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "bad" {
  value = provider::celyaml::render_file("${path.module}/testdata/files/broken.yaml", {})
}
`,
			ExpectError: errorRe("Error in function call", "testdata/files/broken.yaml:4:12: data.sum.$eval: no matching overload for int + double"),
		}},
	})
}
