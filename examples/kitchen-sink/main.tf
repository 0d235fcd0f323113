# The specification's kitchen-sink example, rendered by the celyaml_render
# data source, then split into Kubernetes-style manifests by a provider
# function. Run it with `make demo` (no terraform init needed).

terraform {
  required_version = ">= 1.8"
  required_providers {
    celyaml = {
      source = "celyaml/celyaml"
    }
  }
}

provider "celyaml" {}

variable "env" {
  type    = string
  default = "prod"
}

variable "region" {
  type    = string
  default = "us-east-1"
}

variable "services" {
  type = list(object({
    name = string
    ha   = bool
  }))
  default = [
    { name = "cart", ha = true },
    { name = "catalog", ha = false },
  ]
}

# The template and its $include resolve relative to this module, so the
# example also works when called from another directory.
data "celyaml_render" "kitchen_sink" {
  template_file = "${path.module}/app.yaml"
  context = {
    env      = var.env
    region   = var.region
    services = var.services
  }
}

locals {
  # The rendered document is a v1 List; its items are the real objects.
  # manifests() keys them as group/Kind/namespace/name, ready for for_each.
  manifests = provider::celyaml::manifests(data.celyaml_render.kitchen_sink.result.items)
}

# The rendered YAML stream, as a string.
output "yaml" {
  value = data.celyaml_render.kitchen_sink.yaml
}

# The List's items keyed by manifest ID, e.g. "_/Service/_/cart-us-east-1".
output "manifests" {
  value = local.manifests
}

output "manifest_ids" {
  value = keys(local.manifests)
}
