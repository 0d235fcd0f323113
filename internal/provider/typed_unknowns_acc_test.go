package provider

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// The probe provider stands in for kubernetes_manifest in the acceptance
// test below: its one resource takes a value of dynamic type and, at plan,
// reads the Terraform type of every unknown leaf in it, as
// kubernetes_manifest does when it converts a manifest to its schema. It
// fails the plan unless those types are exactly the ones its
// unknown_types attribute expects, so a passing plan shows the types that
// reached a resource through the real Terraform.
type probeProvider struct{}

func (probeProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "probe"
}
func (probeProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}
func (probeProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}
func (probeProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }
func (probeProvider) Functions(context.Context) []func() function.Function       { return nil }
func (probeProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return probeUnknowns{} }}
}

type probeUnknowns struct{}

func (probeUnknowns) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "probe_unknowns"
}

func (probeUnknowns) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"value":         schema.DynamicAttribute{Required: true},
		"unknown_types": schema.MapAttribute{Required: true, ElementType: types.StringType},
	}}
}

// ModifyPlan compares the unknown leaves of the planned value with
// unknown_types. A value with no unknown leaf (at apply) is not checked.
func (probeUnknowns) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var attrs map[string]tftypes.Value
	if err := req.Plan.Raw.As(&attrs); err != nil {
		resp.Diagnostics.AddError("probe", err.Error())
		return
	}
	var got []string
	var walk func(path string, v tftypes.Value)
	walk = func(path string, v tftypes.Value) {
		switch {
		case !v.IsKnown():
			got = append(got, path+" = "+v.Type().String())
		case v.IsNull():
		case v.Type().Is(tftypes.Object{}), v.Type().Is(tftypes.Map{}):
			var m map[string]tftypes.Value
			_ = v.As(&m)
			for k, e := range m {
				walk(strings.TrimPrefix(path+"."+k, "."), e)
			}
		case v.Type().Is(tftypes.Tuple{}), v.Type().Is(tftypes.List{}):
			var l []tftypes.Value
			_ = v.As(&l)
			for i, e := range l {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		}
	}
	walk("", attrs["value"])
	if len(got) == 0 {
		return
	}
	var want map[string]string
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("unknown_types"), &want)...)
	var wantLines []string
	for k, v := range want {
		wantLines = append(wantLines, k+" = "+v)
	}
	sort.Strings(got)
	sort.Strings(wantLines)
	if g, w := strings.Join(got, "\n"), strings.Join(wantLines, "\n"); g != w {
		resp.Diagnostics.AddError("probe: unexpected unknown leaves", "got\n"+g+"\nwant\n"+w)
	}
}

func (probeUnknowns) Create(_ context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	resp.State.Raw = req.Plan.Raw
}
func (probeUnknowns) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}
func (probeUnknowns) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}
func (probeUnknowns) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// Through the real Terraform, the unknowns render_file returns reach a
// resource with their types: an unknown string where the template
// interpolates or reads a string (a resource's string attribute, or an
// unknown of dynamic type that the template's $schema types), an
// unknown number and bool where it reads those, and dynamic only where
// nothing types the value. This is what kubernetes_manifest needs of an
// image not known until apply. After apply a second plan is empty.
func TestAccRenderFile_unknownLeavesReachAResourceTyped(t *testing.T) {
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
  input = jsonencode("registry.example/app:1")
}

locals {
  # jsondecode of a value not known yet is an unknown of dynamic type
  dynamic = jsondecode(terraform_data.src.output)
}

resource "probe_unknowns" "doc" {
  value = provider::celyaml::render_file("${path.module}/testdata/files/typed_unknowns.yaml", {
    tag      = length(terraform_data.src.id)   # an unknown number
    replicas = length(terraform_data.src.id)
    paused   = terraform_data.src.id == "none" # an unknown bool
    image    = local.dynamic                   # unknown, of dynamic type
    cmd      = terraform_data.src.id           # an unknown string
    extra    = local.dynamic
  })
  unknown_types = {
    "metadata.annotations.ref"                   = "tftypes.String"
    "spec.paused"                                = "tftypes.Bool"
    "spec.replicas"                              = "tftypes.Number"
    "spec.template.spec.containers[0].args[0]"    = "tftypes.String"
    "spec.template.spec.containers[0].command[0]" = "tftypes.String"
    "spec.template.spec.containers[0].image"      = "tftypes.String"
    "spec.template.spec.containers[0].workingDir" = "tftypes.String"
  }
}
`,
			ConfigPlanChecks: emptySecondPlan,
		}},
	})
}
