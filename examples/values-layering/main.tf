# Layered values, as Helm's `-f values.yaml -f values-prod.yaml --set ...`:
# deep_merge layers the files and the module input, later layers winning at
# any depth; the template's $schema checks the result and fills defaults.
# docs/guides/composing.md explains it step by step.

terraform {
  required_version = ">= 1.8"
  required_providers {
    celyaml = {
      source = "celyaml/celyaml"
    }
  }
}

provider "celyaml" {}

variable "environment" {
  type    = string
  default = "prod"
}

# The caller's own overrides: the last layer.
variable "overrides" {
  type = any
  default = {
    resources = { limits = { memory = "512Mi" } }
  }
}

locals {
  values = provider::celyaml::deep_merge(
    yamldecode(file("${path.module}/values.yaml")),
    yamldecode(file("${path.module}/values-${var.environment}.yaml")),
    var.overrides,
  )
}

data "celyaml_render" "app" {
  template_file = "${path.module}/app.yaml"
  context       = local.values
}

output "values" {
  value = local.values
}

output "yaml" {
  value = data.celyaml_render.app.yaml
}
