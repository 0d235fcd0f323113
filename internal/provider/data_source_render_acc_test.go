package provider

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// emptySecondPlan asserts that planning again after apply changes nothing.
var emptySecondPlan = resource.ConfigPlanChecks{
	PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
}

func TestAccRenderDataSource_everyAttribute(t *testing.T) {
	const addr = "data.celyaml_render.app"
	deployment := knownvalue.ObjectExact(map[string]knownvalue.Check{
		"apiVersion": knownvalue.StringExact("apps/v1"),
		"kind":       knownvalue.StringExact("Deployment"),
		"metadata": knownvalue.ObjectExact(map[string]knownvalue.Check{
			"name":      knownvalue.StringExact("cart"),
			"namespace": knownvalue.StringExact("prod"),
		}),
		"spec": knownvalue.ObjectExact(map[string]knownvalue.Check{
			"replicas": knownvalue.Int64Exact(3),
			"big":      knownvalue.Int64Exact(9007199254740993),
			"ratio":    knownvalue.Float64Exact(0.25),
			"enabled":  knownvalue.Bool(true),
			"none":     knownvalue.Null(),
			"ports":    knownvalue.TupleExact([]knownvalue.Check{knownvalue.Int64Exact(80), knownvalue.Int64Exact(443)}),
		}),
	})
	service := knownvalue.ObjectExact(map[string]knownvalue.Check{
		"apiVersion": knownvalue.StringExact("v1"),
		"kind":       knownvalue.StringExact("Service"),
		"metadata":   knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("cart")}),
	})
	note := knownvalue.ObjectExact(map[string]knownvalue.Check{"note": knownvalue.StringExact("not a manifest")})
	docs := knownvalue.TupleExact([]knownvalue.Check{deployment, service, note})

	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
data "celyaml_render" "app" {
  template = <<-EOT
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name:
        $eval: "$${{ name }}"
      namespace: prod
    spec:
      replicas:
        $eval: "$${{ replicas }}"
      big:
        $eval: "$${{ big + 1 }}"
      ratio: 0.25
      enabled: true
      none: null
      ports:
        $eval: "$${{ ports }}"
    ---
    apiVersion: v1
    kind: Service
    metadata:
      name:
        $eval: "$${{ name }}"
    ---
    note: not a manifest
  EOT
  context = {
    name     = "cart"
    replicas = 3
    big      = 9007199254740992
    ports    = [80, 443]
  }
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("yaml"), knownvalue.StringExact(
					"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: cart\n  namespace: prod\nspec:\n  replicas: 3\n  big: 9007199254740993\n  ratio: 0.25\n  enabled: true\n  none: null\n  ports:\n    - 80\n    - 443\n"+
						"---\napiVersion: v1\nkind: Service\nmetadata:\n  name: cart\n"+
						"---\nnote: not a manifest\n")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("yaml_documents"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: cart\n  namespace: prod\nspec:\n  replicas: 3\n  big: 9007199254740993\n  ratio: 0.25\n  enabled: true\n  none: null\n  ports:\n    - 80\n    - 443\n"),
					knownvalue.StringExact("apiVersion: v1\nkind: Service\nmetadata:\n  name: cart\n"),
					knownvalue.StringExact("note: not a manifest\n"),
				})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("json"), knownvalue.StringExact(
					`[{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"cart","namespace":"prod"},"spec":{"replicas":3,"big":9007199254740993,"ratio":0.25,"enabled":true,"none":null,"ports":[80,443]}},`+
						`{"apiVersion":"v1","kind":"Service","metadata":{"name":"cart"}},{"note":"not a manifest"}]`)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("result"), docs),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("documents"), docs),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("manifests"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"apps/Deployment/prod/cart": deployment,
					"_/Service/_/cart":          service,
				})),
			},
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}

func TestAccRenderDataSource_singleDocumentResultIsTheDocument(t *testing.T) {
	doc := knownvalue.ObjectExact(map[string]knownvalue.Check{"a": knownvalue.Int64Exact(1)})
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
data "celyaml_render" "one" {
  template = "a: 1\n"
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.celyaml_render.one", tfjsonpath.New("result"), doc),
				statecheck.ExpectKnownValue("data.celyaml_render.one", tfjsonpath.New("documents"), knownvalue.TupleExact([]knownvalue.Check{doc})),
				statecheck.ExpectKnownValue("data.celyaml_render.one", tfjsonpath.New("json"), knownvalue.StringExact(`{"a":1}`)),
				statecheck.ExpectKnownValue("data.celyaml_render.one", tfjsonpath.New("manifests"), knownvalue.ObjectExact(map[string]knownvalue.Check{})),
			},
		}},
	})
}

func TestAccRenderDataSource_zeroDocuments(t *testing.T) {
	const addr = "data.celyaml_render.none"
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
data "celyaml_render" "none" {
  template = "$if: \"enabled\"\n$then:\n  a: 1\n"
  context  = { enabled = false }
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("yaml"), knownvalue.StringExact("")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("json"), knownvalue.StringExact("[]")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("result"), knownvalue.TupleExact([]knownvalue.Check{})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("documents"), knownvalue.TupleExact([]knownvalue.Check{})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("yaml_documents"), knownvalue.ListExact([]knownvalue.Check{})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("manifests"), knownvalue.ObjectExact(map[string]knownvalue.Check{})),
			},
		}},
	})
}

func TestAccRenderDataSource_nullAndEmptyContexts(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
data "celyaml_render" "absent" {
  template = "sum:\n  $eval: \"$${{ 1 + 1 }}\"\n"
}

data "celyaml_render" "null" {
  template = "sum:\n  $eval: \"$${{ 1 + 2 }}\"\n"
  context  = null
}

data "celyaml_render" "empty" {
  template = "sum:\n  $eval: \"$${{ 1 + 3 }}\"\n"
  context  = {}
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.celyaml_render.absent", tfjsonpath.New("yaml"), knownvalue.StringExact("sum: 2\n")),
				statecheck.ExpectKnownValue("data.celyaml_render.null", tfjsonpath.New("yaml"), knownvalue.StringExact("sum: 3\n")),
				statecheck.ExpectKnownValue("data.celyaml_render.empty", tfjsonpath.New("yaml"), knownvalue.StringExact("sum: 4\n")),
			},
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}

// The kitchen-sink example of the specification, from a file with an
// $include next to it.
func TestAccRenderDataSource_kitchenSink(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
data "celyaml_render" "ks" {
  template_file = "${path.module}/testdata/kitchen-sink/app.yaml"
  context = {
    env    = "prod"
    region = "us-east-1"
    services = [
      { name = "cart", ha = true },
      { name = "catalog", ha = false },
    ]
  }
}

output "manifests" {
  value = provider::celyaml::manifests(data.celyaml_render.ks.result.items)
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.celyaml_render.ks", tfjsonpath.New("yaml"), knownvalue.StringExact(`apiVersion: v1
kind: List
items:
  - kind: Service
    metadata:
      name: cart-us-east-1
      labels:
        owner: platform
        team: sre
    type: LoadBalancer
    replicas: 3
    ports:
      - port: 80
        targetPort: 8080
  - kind: Service
    metadata:
      name: catalog-us-east-1
      labels:
        owner: platform
        team: sre
    type: ClusterIP
    replicas: 1
    ports:
      - port: 80
        targetPort: 8080
  - kind: DaemonSet
    metadata:
      name: monitoring-agent
    spec:
      clusterDomain: acme.com
      region: us-east-1
`)),
				statecheck.ExpectKnownOutputValue("manifests", knownvalue.MapSizeExact(3)),
				statecheck.ExpectKnownOutputValueAtPath("manifests", tfjsonpath.New("_/Service/_/catalog-us-east-1").AtMapKey("type"), knownvalue.StringExact("ClusterIP")),
				statecheck.ExpectKnownOutputValueAtPath("manifests", tfjsonpath.New("_/DaemonSet/_/monitoring-agent").AtMapKey("spec").AtMapKey("clusterDomain"), knownvalue.StringExact("acme.com")),
			},
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}

// A module called with a relative source renders its own files: the data
// source's template_file and its $include, render_file from the module, and
// a nested module's inline template with base_dir = path.module.
func TestAccRenderDataSource_includeFromNestedModule(t *testing.T) {
	configMap := knownvalue.ObjectExact(map[string]knownvalue.Check{
		"kind": knownvalue.StringExact("ConfigMap"),
		"metadata": knownvalue.ObjectExact(map[string]knownvalue.Check{
			"name": knownvalue.StringExact("web"),
			"labels": knownvalue.ObjectExact(map[string]knownvalue.Check{
				"app":    knownvalue.StringExact("web"),
				"source": knownvalue.StringExact("module-parts"),
			}),
		}),
	})
	inner := knownvalue.ObjectExact(map[string]knownvalue.Check{
		"port": knownvalue.ObjectExact(map[string]knownvalue.Check{
			"number":   knownvalue.Int64Exact(8080),
			"protocol": knownvalue.StringExact("TCP"),
		}),
		"owner": knownvalue.StringExact("web"),
	})
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
module "app" {
  source = "./testdata/modules/app"
  name   = "web"
}

output "result" {
  value = module.app.result
}

output "function_result" {
  value = module.app.function_result
}

output "inner_result" {
  value = module.app.inner_result
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("result", configMap),
				statecheck.ExpectKnownOutputValue("function_result", configMap),
				statecheck.ExpectKnownOutputValue("inner_result", inner),
			},
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}

// A module from a non-local source is installed under .terraform/modules;
// path.module then points there and its files must still be found.
func TestAccRenderDataSource_moduleInstalledUnderDotTerraform(t *testing.T) {
	src, err := filepath.Abs("testdata/modules/app")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(src); err != nil {
		t.Fatal(err)
	}
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
module "installed" {
  source = "` + filepath.ToSlash(src) + `"
  name   = "api"
}

output "labels" {
  value = module.installed.result.metadata.labels
}

output "inner_port" {
  value = module.installed.inner_result.port.number
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("labels", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"app":    knownvalue.StringExact("api"),
					"source": knownvalue.StringExact("module-parts"),
				})),
				statecheck.ExpectKnownOutputValue("inner_port", knownvalue.Int64Exact(8080)),
			},
		}},
	})
}

func TestAccRenderDataSource_errorsPointAtTheLine(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: terraformHeader + `
data "celyaml_render" "bad" {
  template = "kind: x\nsum:\n  $eval: \"$${{ 1 + 1.0 }}\"\n"
}
`,
				ExpectError: errorRe("Template rendering failed", "<inline>:3:10: sum.$eval: no matching overload for int + double", "| ${{ 1 + 1.0 }}"),
			},
			{
				Config: terraformHeader + `
data "celyaml_render" "bad" {
  template_file = "${path.module}/testdata/files/broken.yaml"
}
`,
				ExpectError: errorRe("Template rendering failed", "testdata/files/broken.yaml:4:12: data.sum.$eval: no matching overload for int + double"),
			},
			{
				Config: terraformHeader + `
data "celyaml_render" "dup" {
  template = "kind: A\nmetadata: {name: x}\n---\nkind: A\nmetadata: {name: x}\n"
}
`,
				ExpectError: errorRe("Duplicate manifest ID", `documents 0 (from <inline>:1:1) and 1 (from <inline>:4:1) have the same manifest ID "_/A/_/x"`),
			},
		},
	})
}

func TestAccRenderDataSource_exactlyOneTemplateAtValidate(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: terraformHeader + `
data "celyaml_render" "neither" {
  context = { a = 1 }
}
`,
				ExpectError: errorRe("Missing template", `Set exactly one of "template" (inline template text) and "template_file" (path to a template file); neither is set.`),
			},
			{
				Config: terraformHeader + `
data "celyaml_render" "both" {
  template      = "a: 1"
  template_file = "x.yaml"
}
`,
				ExpectError: errorRe("Conflicting template arguments", "both are set."),
			},
		},
	})
}

// for_each over the data source's manifests creates one terraform_data
// (a stand-in for kubernetes_manifest) per manifest, keyed by ID.
func TestAccRenderDataSource_forEachOverManifests(t *testing.T) {
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
data "celyaml_render" "app" {
  template_file = "${path.module}/testdata/files/app.yaml"
  context = {
    name  = "cart"
    env   = "prod"
    image = "nginx:1.27"
  }
}

resource "terraform_data" "manifest" {
  for_each = data.celyaml_render.app.manifests
  input    = each.value
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(`terraform_data.manifest["apps/Deployment/prod/cart-prod"]`, plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction(`terraform_data.manifest["_/Service/_/cart"]`, plancheck.ResourceActionCreate),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(`terraform_data.manifest["apps/Deployment/prod/cart-prod"]`,
					tfjsonpath.New("output").AtMapKey("spec").AtMapKey("image"), knownvalue.StringExact("nginx:1.27")),
				statecheck.ExpectKnownValue(`terraform_data.manifest["_/Service/_/cart"]`,
					tfjsonpath.New("output").AtMapKey("spec").AtMapKey("ports").AtSliceIndex(0).AtMapKey("port"), knownvalue.Int64Exact(80)),
			},
		}},
	})
}
