package provider

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// Helm charts through the real Terraform (reference §11 `$chart`):
// testdata/files/chart/web is a chart of two objects.

// The unknown-image pattern: the chart gets known values only and the
// image, known after apply, is set after it by `$transform images`. The
// first plan lists both objects under their final keys, with only the
// image unknown; the apply gives the image.
func TestAccChart_unknownImageThroughATransformKeepsEveryKey(t *testing.T) {
	const deploy = `terraform_data.manifest["apps/Deployment/shop/web"]`
	const svc = `terraform_data.manifest["_/Service/shop/web"]`
	container := func() tfjsonpath.Path {
		return tfjsonpath.New("input").AtMapKey("spec").AtMapKey("template").AtMapKey("spec").AtMapKey("containers").AtSliceIndex(0)
	}
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
resource "terraform_data" "tag" {
  input = "2.0"
}

resource "terraform_data" "manifest" {
  for_each = provider::celyaml::manifests(provider::celyaml::render_file("${path.module}/testdata/files/chart/install.yaml", {
    replicas = 3
    tag      = terraform_data.tag.output
  }))
  input = each.value
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deploy, plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction(svc, plancheck.ResourceActionCreate),
					plancheck.ExpectUnknownValue(deploy, container().AtMapKey("image")),
					plancheck.ExpectKnownValue(deploy, container().AtMapKey("name"), knownvalue.StringExact("web")),
					plancheck.ExpectKnownValue(deploy, tfjsonpath.New("input").AtMapKey("spec").AtMapKey("replicas"), knownvalue.Int64Exact(3)),
					plancheck.ExpectKnownValue(svc, tfjsonpath.New("input").AtMapKey("spec").AtMapKey("ports").AtSliceIndex(0).AtMapKey("targetPort"), knownvalue.Int64Exact(8080)),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(deploy, tfjsonpath.New("output").AtMapKey("spec").AtMapKey("template").AtMapKey("spec").AtMapKey("containers").AtSliceIndex(0).AtMapKey("image"),
					knownvalue.StringExact("example.com/web:2.0")),
			},
		}},
	})
}

// The same chart with the unknown in $values: Helm cannot render around
// it, so the chart is unknown as a whole, and the data source warns at
// plan, naming the value's path (never its value) and the pattern that
// keeps the keys known. The real CLI shows the warning
// (terraform-plugin-testing does not), and the plan goes on.
func TestAccChart_unknownInValuesMakesTheChartUnknownWithAWarning(t *testing.T) {
	tf := newCLITerraform(t)
	chartDir, err := filepath.Abs(filepath.Join("testdata", "files", "chart"))
	if err != nil {
		t.Fatal(err)
	}
	run := tf.plan(t, "unknown-values", map[string]string{"main.tf": terraformHeader + `
resource "terraform_data" "tag" {
  input = "2.0"
}

data "celyaml_render" "web" {
  template_file = "` + chartDir + `/unknown_values.yaml"
  context = {
    tag = terraform_data.tag.output
  }
}

output "yaml" {
  value = data.celyaml_render.web.yaml
}
`})
	if run.Failed {
		t.Fatalf("the plan failed:\n%s", run.Output)
	}
	var show struct {
		OutputChanges map[string]struct {
			AfterUnknown any `json:"after_unknown"`
		} `json:"output_changes"`
	}
	if err := json.Unmarshal([]byte(run.Show), &show); err != nil {
		t.Fatalf("terraform show -json: %v", err)
	}
	if got := show.OutputChanges["yaml"].AfterUnknown; got != true {
		t.Errorf("the yaml output is not (known after apply) at plan: after_unknown is %v", got)
	}
	// Terraform wraps a warning's text at 80 columns, where the words fall
	// depends on the length of the template's path: compare with the
	// whitespace folded.
	output := strings.Join(strings.Fields(run.Output), " ")
	for _, want := range []string{"Warning: Chart rendered at apply", "is given a value not known until apply, at", "$values.image.tag;", "keep every document's key known."} {
		if !strings.Contains(output, want) {
			t.Errorf("the plan does not say %q:\n%s", want, run.Output)
		}
	}
}
