package provider

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// validateConfig is a configuration that validates two Widgets against
// testdata/validate/widget-crd.yaml and feeds them to for_each; spec1 and
// spec2 are their spec objects in HCL.
func validateConfig(t *testing.T, spec1, spec2 string) string {
	t.Helper()
	crd, err := filepath.Abs("testdata/validate/widget-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return terraformHeader + strings.NewReplacer("CRD", crd, "SPEC1", spec1, "SPEC2", spec2).Replace(`
resource "terraform_data" "image" {
  input = "registry.example/app:1.0"
}

locals {
  docs = provider::celyaml::validate([
    { apiVersion = "example.com/v1", kind = "Widget", metadata = { name = "a", namespace = "prod" }, spec = SPEC1 },
    { apiVersion = "example.com/v1", kind = "Widget", metadata = { name = "b" }, spec = SPEC2 },
    { apiVersion = "v1", kind = "ConfigMap", metadata = { name = "c" }, data = { note = "checked against the built-in schema" } },
  ], yamldecode(file("CRD")))
}

resource "terraform_data" "manifest" {
  for_each = provider::celyaml::manifests(local.docs)
  input    = each.value
}
`)
}

// A plan fails listing both violations, in two documents, by manifest ID
// and path; fixed, the same configuration applies and plans empty.
func TestAccValidateFunction_failsThePlanThenPasses(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: validateConfig(t,
				`{ image = "nginx", replicas = 20, minReplicas = 1 }`,
				`{ image = "nginx", replicas = 2, minReplicas = 3 }`),
			PlanOnly: true,
			ExpectError: errorRe("Invalid function argument", `Invalid value for "documents" parameter:`,
				"the API server would refuse these documents (2 violations):",
				"example.com/Widget/prod/a: spec.replicas: Invalid value: spec.replicas in body should be less than or equal to 10",
				"example.com/Widget/_/b: spec: Invalid value: minReplicas must not exceed replicas"),
		}, {
			Config: validateConfig(t,
				`{ image = "nginx", replicas = 10, minReplicas = 1 }`,
				`{ image = "nginx", replicas = 3, minReplicas = 3 }`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(`terraform_data.manifest["example.com/Widget/prod/a"]`,
					tfjsonpath.New("output").AtMapKey("spec").AtMapKey("replicas"), knownvalue.Int64Exact(10)),
				statecheck.ExpectKnownValue(`terraform_data.manifest["_/ConfigMap/_/c"]`,
					tfjsonpath.New("output").AtMapKey("data").AtMapKey("note"), knownvalue.StringExact("checked against the built-in schema")),
			},
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}

// An image not known at plan leaves the checks that read it for apply;
// every other check is done at plan.
func TestAccValidateFunction_unknownImageLeavesOtherChecksAtPlan(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: validateConfig(t,
				`{ image = terraform_data.image.output, replicas = 2, minReplicas = 1 }`,
				`{ image = terraform_data.image.output, replicas = 0, minReplicas = 0 }`),
			PlanOnly: true,
			ExpectError: errorRe("the API server would refuse these documents (1 violation):",
				"example.com/Widget/_/b: spec.replicas: Invalid value: spec.replicas in body should be greater than or equal to 1"),
		}, {
			Config: validateConfig(t,
				`{ image = terraform_data.image.output, replicas = 2, minReplicas = 1 }`,
				`{ image = terraform_data.image.output, replicas = 1, minReplicas = 1 }`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(`terraform_data.manifest["example.com/Widget/_/b"]`,
					tfjsonpath.New("output").AtMapKey("spec").AtMapKey("image"), knownvalue.StringExact("registry.example/app:1.0")),
			},
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}

// A version the CRD does not serve is an error that names what it serves.
func TestAccValidateFunction_versionMismatch(t *testing.T) {
	crd, err := filepath.Abs("testdata/validate/widget-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "docs" {
  value = provider::celyaml::validate(
    { apiVersion = "example.com/v1beta1", kind = "Widget", metadata = { name = "a" }, spec = {} },
    yamldecode(file("` + crd + `")),
  )
}
`,
			PlanOnly: true,
			ExpectError: errorRe("the API server would refuse these documents (1 violation):",
				"example.com/Widget/_/a: no schema for kind Widget in example.com/v1beta1: the schemas cover group example.com with example.com/v1 Widget"),
		}},
	})
}

// A built-in kind is checked against a saved OpenAPI v3 document.
func TestAccValidateFunction_builtInKindAgainstOpenAPI(t *testing.T) {
	openapi, err := filepath.Abs("../validate/testdata/openapi-apps-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "docs" {
  value = provider::celyaml::validate(
    { apiVersion = "apps/v1", kind = "Deployment", metadata = { name = "cart", namespace = "prod" },
      spec = { selector = {}, template = { spec = { containers = [{ name = "cart", imagePullPolicy = "Sometimes" }] } } } },
    jsondecode(file("` + openapi + `")),
  )
}
`,
			PlanOnly: true,
			ExpectError: errorRe("the API server would refuse these documents (1 violation):",
				`apps/Deployment/prod/cart: spec.template.spec.containers[0].imagePullPolicy: Unsupported value: supported values: "Always", "IfNotPresent", "Never"`),
		}},
	})
}
