package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// Through the real Terraform, render_file's unknowns reach a resource with
// the types their kinds' schemas give them (the unknown-values guide,
// "What is typed from where"): values, flags and port are unknown as a
// whole (jsondecode of a value not known yet), yet every leaf of the
// Deployment, the Service and the custom kind whose CRD is in the same
// render is typed. After apply a second plan is empty.
func TestAccRenderFile_unknownsReachAResourceTypedByTheirKind(t *testing.T) {
	accTest(t, tfresource.TestCase{
		Steps: []tfresource.TestStep{{
			ProtoV6ProviderFactories: map[string]func() (tfprotov6.ProviderServer, error){
				"probe": providerserver.NewProtocol6WithError(probeProvider{}),
			},
			Config: `
terraform {
  required_providers {
    celyaml = { source = "celyaml/celyaml" }
    probe   = { source = "celyaml/probe" }
  }
}

resource "terraform_data" "src" {
  input = jsonencode({ team = "a", replicas = 2, image = "app:1", note = "n", size = 3, color = "red" })
}

locals {
  values = jsondecode(terraform_data.src.output) # unknown as a whole, dynamic
}

resource "probe_unknowns" "docs" {
  value = provider::celyaml::render_file("${path.module}/testdata/files/typed_by_kind.yaml", {
    values = local.values
    flags  = jsondecode(jsonencode({ pull = terraform_data.src.id == "x", enabled = true }))
    port   = jsondecode(length(terraform_data.src.id))
    number = length(terraform_data.src.id)
    args   = [for s in split(",", terraform_data.src.id) : s]
  })
  unknown_types = {
    "[0].metadata.labels.team"                                   = "tftypes.String"
    "[0].spec.replicas"                                          = "tftypes.Number"
    "[0].spec.template.spec.containers[0].args[0]"               = "tftypes.String"
    "[0].spec.template.spec.containers[0].image"                 = "tftypes.String"
    "[0].spec.template.spec.containers[0].imagePullPolicy"       = "tftypes.String"
    "[0].spec.template.spec.containers[0].ports[0].containerPort" = "tftypes.Number"
    "[1].spec.ports[0].targetPort"                               = "tftypes.String"
    "[3].metadata.annotations.note"                              = "tftypes.String"
    "[3].spec.color"                                             = "tftypes.String"
    "[3].spec.enabled"                                           = "tftypes.Bool"
    "[3].spec.size"                                              = "tftypes.Number"
  }
}
`,
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}

// An unknown list(string) that passes through eval is returned dynamic,
// not list(string): at apply the engine writes the known list as a tuple,
// and Terraform checks that the planned value's type still holds, so a
// list(string) placeholder would fail the apply of whatever resource took
// it ("Provider produced inconsistent final plan ... wrong final value
// type"). This plan and apply run clean.
func TestAccEval_anUnknownListIsWrittenDynamicSoApplyHolds(t *testing.T) {
	accTest(t, tfresource.TestCase{
		Steps: []tfresource.TestStep{{
			Config: `
terraform {
  required_providers {
    celyaml = { source = "celyaml/celyaml" }
  }
}

resource "terraform_data" "src" {
  input = "a,b"
}

resource "terraform_data" "use" {
  input = provider::celyaml::eval("args", { args = split(",", terraform_data.src.id) })
}

output "n" {
  value = length(terraform_data.use.output)
}
`,
			Check:            tfresource.TestCheckOutput("n", "1"),
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}
