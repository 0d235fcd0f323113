# The specification's kitchen-sink example, rendered by the celyaml_render
# data source, then split into Kubernetes-style manifests by a provider
# function, beside a Secret rendered the safe way (sensitive = true). Run it
# with `make demo` (no terraform init needed).

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

variable "db_password" {
  type      = string
  sensitive = true
  default   = "example-only-not-a-secret"
}

# A template that renders a secret sets sensitive = true: the results then
# come in the sensitive_ attributes, which Terraform marks sensitive, so no
# plan or output prints the password. Without it, a rendered Secret's data
# gives a warning: Terraform does not tell the provider that db_password is
# sensitive, and would print it.
data "celyaml_render" "db_secret" {
  template = <<-EOT
    apiVersion: v1
    kind: Secret
    metadata:
      name: db
      namespace:
        $eval: "$${{ env }}"
    stringData:
      password:
        $eval: "$${{ password }}"
  EOT
  context   = { env = var.env, password = var.db_password }
  sensitive = true
}

# The manifest IDs are not secret here: nonsensitive() lets for_each use
# them, while each Secret itself stays marked.
resource "terraform_data" "secret" {
  for_each = toset(nonsensitive(keys(data.celyaml_render.db_secret.sensitive_manifests)))
  input    = data.celyaml_render.db_secret.sensitive_manifests[each.key]
}

output "secret_ids" {
  value = keys(terraform_data.secret) # ["_/Secret/prod/db"]
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
