package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// Overlays (reference §8) through the real Terraform: testdata/files/overlay
// includes a vendored two-document bundle and patches it.

// overlaidYAML is testdata/files/overlay/install.yaml rendered with
// ns = "shop" and shipper_image = "example.com/shipper:2".
const overlaidYAML = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  labels:
    team: shop
spec:
  template:
    spec:
      containers:
        - name: app
          image: example.com/app:1.0
          resources:
            limits:
              memory: 256Mi
        - name: proxy
          image: example.com/proxy:1.0
        - name: shipper
          image: example.com/shipper:2
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
  labels:
    team: shop
spec:
  ports:
    - port: 80
`

func TestAccOverlay_renderFileEditsAnIncludedBundle(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "yaml" {
  value = join("---\n", [for d in provider::celyaml::render_file("${path.module}/testdata/files/overlay/install.yaml", {
    ns            = "shop"
    shipper_image = "example.com/shipper:2"
  }) : provider::celyaml::to_yaml(d)])
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				// to_yaml writes Terraform's objects, whose keys are sorted.
				statecheck.ExpectKnownOutputValue("yaml", knownvalue.StringExact(`apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    team: shop
  name: web
  namespace: shop
spec:
  template:
    spec:
      containers:
        - image: example.com/app:1.0
          name: app
          resources:
            limits:
              memory: 256Mi
        - image: example.com/proxy:1.0
          name: proxy
        - image: example.com/shipper:2
          name: shipper
---
apiVersion: v1
kind: Service
metadata:
  labels:
    team: shop
  name: web
  namespace: shop
spec:
  ports:
    - port: 80
`)),
			},
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}

func TestAccOverlay_dataSourceEditsAnIncludedBundle(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
data "celyaml_render" "install" {
  template_file = "${path.module}/testdata/files/overlay/install.yaml"
  context = {
    ns            = "shop"
    shipper_image = "example.com/shipper:2"
  }
}

output "yaml" {
  value = data.celyaml_render.install.yaml
}

output "ids" {
  value = keys(data.celyaml_render.install.manifests)
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("yaml", knownvalue.StringExact(overlaidYAML)),
				// The IDs are built after the overlays: the new namespace.
				statecheck.ExpectKnownOutputValue("ids", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("_/Service/shop/web"),
					knownvalue.StringExact("apps/Deployment/shop/web"),
				})),
			},
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}

// for_each over the manifests of an overlaid bundle whose appended sidecar
// image is unknown until apply: the keys are known at plan, with the
// namespace the overlay set, and only the sidecar's image is unknown.
func TestAccOverlay_forEachOverManifestsWithUnknownImage(t *testing.T) {
	const deploy = `terraform_data.manifest["apps/Deployment/shop/web"]`
	const svc = `terraform_data.manifest["_/Service/shop/web"]`
	// A fresh path each time: tfjsonpath's At* methods may share the
	// slice of the path they extend.
	container := func(i int) tfjsonpath.Path {
		return tfjsonpath.New("input").AtMapKey("spec").AtMapKey("template").AtMapKey("spec").AtMapKey("containers").AtSliceIndex(i)
	}
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
resource "terraform_data" "img" {
  input = "example.com/shipper:2"
}

resource "terraform_data" "manifest" {
  for_each = provider::celyaml::manifests(provider::celyaml::render_file("${path.module}/testdata/files/overlay/install.yaml", {
    ns            = "shop"
    shipper_image = terraform_data.img.output
  }))
  input = each.value
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deploy, plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction(svc, plancheck.ResourceActionCreate),
					plancheck.ExpectUnknownValue(deploy, container(2).AtMapKey("image")),
					plancheck.ExpectKnownValue(deploy, container(2).AtMapKey("name"), knownvalue.StringExact("shipper")),
					plancheck.ExpectKnownValue(deploy, container(0).AtMapKey("resources").AtMapKey("limits").AtMapKey("memory"), knownvalue.StringExact("256Mi")),
					plancheck.ExpectKnownValue(svc, tfjsonpath.New("input").AtMapKey("metadata").AtMapKey("namespace"), knownvalue.StringExact("shop")),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(deploy, tfjsonpath.New("output").AtMapKey("spec").AtMapKey("template").AtMapKey("spec").AtMapKey("containers").AtSliceIndex(2).AtMapKey("image"),
					knownvalue.StringExact("example.com/shipper:2")),
			},
		}},
	})
}

// An overlay that matches nothing stops the plan with the overlay's
// position and the counts.
func TestAccOverlay_errorNamesTheOverlayAndTheCounts(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "docs" {
  value = provider::celyaml::render("kind: Service\n---\n$overlay: \"doc.kind == 'Deployment'\"\nx: 1\n", {})
}
`,
			ExpectError: errorRe("<inline>:3:1: $overlay: this overlay expects 1+ matching document, and 0 of the 1 rendered documents matched"),
		}},
	})
}
