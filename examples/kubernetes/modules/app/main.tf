# One ConfigMap, Deployment and Service per service, rendered from the
# CEL-YAML templates next to this file.

terraform {
  required_version = ">= 1.8"
  required_providers {
    celyaml = {
      source = "celyaml/celyaml"
    }
  }
}

locals {
  # render_file resolves $include against the template's own directory, so
  # this module finds its files wherever it is installed. manifests() keys
  # the documents by group/Kind/namespace/name: those parts are known at plan
  # time even while var.image is not, so for_each works before apply.
  # (`namespace` is a reserved word in CEL, so the templates call it `ns`.)
  manifests = provider::celyaml::manifests(provider::celyaml::render_file(
    "${path.module}/templates/app.yaml",
    {
      app         = var.app
      ns          = var.namespace
      environment = var.environment
      image       = var.image
      services    = var.services
    }
  ))
}

# Stands in for kubernetes_manifest so that the example plans without a
# cluster. Each instance holds one manifest; the unknown image shows up as
# "(known after apply)" inside an otherwise known object.
resource "terraform_data" "manifest" {
  for_each = local.manifests
  input    = each.value
}

# With the hashicorp/kubernetes provider configured for a cluster, use this
# instead of terraform_data.manifest:
#
# resource "kubernetes_manifest" "this" {
#   for_each = local.manifests
#   manifest = each.value
# }
