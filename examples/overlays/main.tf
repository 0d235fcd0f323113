# An upstream bundle installed with a transform and an overlay: the bundle
# stays as upstream wrote it (vendor/bundle.yaml) and install.yaml changes
# it. The namespace is a variable of this module, passed to the template. Run it with
# `make example EX=overlays TF_CMD=apply`; `make examples` checks its
# outputs. docs/guides/composing.md explains it step by step.

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
  default = "widgets"
}

variable "shipper_image" {
  type    = string
  default = "example.com/log-shipper:2.4.1"
}

data "celyaml_render" "install" {
  template_file = "${path.module}/install.yaml"
  context = {
    target_namespace = var.namespace
    shipper_image    = var.shipper_image
    labels = {
      "app.kubernetes.io/managed-by" = "terraform"
      "app.kubernetes.io/part-of"    = "widgets"
    }
  }
}

# The manifests keyed by ID, as kubernetes_manifest's for_each wants them.
# The IDs are computed after the overlays and the transform: the namespace
# is the new one.
output "manifest_ids" {
  value = keys(data.celyaml_render.install.manifests)
}

output "yaml" {
  value = data.celyaml_render.install.yaml
}
