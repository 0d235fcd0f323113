# A local Helm chart as a source: charts/widget is rendered by Helm's own
# code inside celyaml_render (install.yaml), patched by an overlay, moved
# and labelled by a transform whose image tag is a variable, and every
# object reaches for_each under its own key. Run it with
# `make example EX=helm-chart TF_CMD=apply`; `make examples` checks its
# outputs. docs/guides/composing.md ("Helm charts") explains it.

terraform {
  required_version = ">= 1.8"
  required_providers {
    celyaml = {
      source = "celyaml/celyaml"
    }
  }
}

provider "celyaml" {}

variable "namespace" {
  type    = string
  default = "shop"
}

variable "widget_tag" {
  description = "The widget image's tag: the chart's appVersion is 1.4.2."
  type        = string
  default     = "1.5.0"
}

data "celyaml_render" "widget" {
  template_file = "${path.module}/install.yaml"
  context = {
    replicas         = 2
    target_namespace = var.namespace
    widget_tag       = var.widget_tag
    labels = {
      "app.kubernetes.io/managed-by" = "terraform"
    }
  }
}

# One resource per object, keyed by manifest ID, as kubernetes_manifest's
# for_each takes them (terraform_data stands in: no cluster needed).
resource "terraform_data" "manifest" {
  for_each = data.celyaml_render.widget.manifests
  input    = each.value
}

output "manifest_ids" {
  value = keys(terraform_data.manifest)
}

output "yaml" {
  value = data.celyaml_render.widget.yaml
}
