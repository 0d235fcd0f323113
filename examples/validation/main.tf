# validate() in front of for_each: the rendered Widgets are checked against
# the Widget CRD (its structural schema and its x-kubernetes-validations
# rules) during plan, so a Widget the API server would refuse fails the
# plan, not the apply. docs/guides/validating.md shows what the plan prints.
#
# The resources are terraform_data so that the example runs without a
# cluster; with one, kubernetes_manifest takes their place.

terraform {
  required_version = ">= 1.8"
  required_providers {
    celyaml = {
      source = "celyaml/celyaml"
    }
  }
}

provider "celyaml" {}

variable "widgets" {
  type = list(object({ name = string, replicas = number, minReplicas = number, size = string }))
  default = [
    { name = "small", replicas = 2, minReplicas = 1, size = "small" },
    { name = "big", replicas = 10, minReplicas = 4, size = "large" },
  ]
}

# The image is only known after apply, as an image a pipeline pushes would
# be: the rule on it waits for apply, every other check runs at plan.
resource "terraform_data" "image" {
  input = "registry.example/widget:1.4.2"
}

locals {
  widgets = provider::celyaml::validate(
    provider::celyaml::render_file("${path.module}/widgets.yaml", {
      widgets   = var.widgets
      ns        = "prod"
      image     = terraform_data.image.output
    }),
    provider::celyaml::render_file("${path.module}/crds/widgets.yaml", {}),
  )
}

resource "terraform_data" "widget" {
  for_each = provider::celyaml::manifests(local.widgets)
  input    = each.value
}

output "widgets" {
  value = { for id, w in terraform_data.widget : id => w.output.spec }
}
