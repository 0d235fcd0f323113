# A template that renders secrets sets sensitive = true: the results come
# in the sensitive_ attributes (sensitive_yaml, sensitive_manifests, ...),
# which plans and outputs hide, and the plain ones are null. Terraform does
# not tell a provider which of its arguments are sensitive, so without it a
# plan would print the password; a rendered Secret's data then gives a
# warning.
variable "db_password" {
  type      = string
  sensitive = true
  default   = "example-only-not-a-secret"
}

data "celyaml_render" "db" {
  template = <<-EOT
    apiVersion: v1
    kind: Secret
    metadata:
      name: db
      namespace: prod
    stringData:
      password:
        $eval: "$${{ password }}"
  EOT
  context   = { password = var.db_password }
  sensitive = true
}

# for_each refuses sensitive keys; the IDs are not secret here.
resource "terraform_data" "secret" {
  for_each = toset(nonsensitive(keys(data.celyaml_render.db.sensitive_manifests)))
  input    = data.celyaml_render.db.sensitive_manifests[each.key]
}

output "secret_yaml" {
  value     = data.celyaml_render.db.sensitive_yaml
  sensitive = true # Terraform refuses the output without it
}

# Render a template file that sits next to this module. $include paths in
# the file resolve against the file's own directory.
data "celyaml_render" "app" {
  template_file = "${path.module}/templates/app.yaml"
  context = {
    env      = "prod"
    replicas = 3
    services = [
      { name = "cart", port = 8080 },
      { name = "catalog", port = 8081 },
    ]
  }
}

# Or an inline template. In HCL strings "${" starts an interpolation, so
# CEL-YAML's ${{ }} is written $${{ }}. base_dir is where $include looks.
data "celyaml_render" "config" {
  template = <<-EOT
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name:
        $eval: "$${{ name }}-config"
    data:
      $for: "k, v in settings"
      $do:
        $key:
          $eval: "$${{ k.upperAscii() }}"
        $value:
          $eval: "$${{ string(v) }}"
  EOT
  base_dir = path.module
  context = {
    name     = "cart"
    settings = { log_level = "info", workers = 4 }
  }
}

output "yaml" {
  value = data.celyaml_render.app.yaml # the YAML stream, documents separated by ---
}

output "config_data" {
  value = data.celyaml_render.config.documents[0].data # { LOG_LEVEL = "info", WORKERS = "4" }
}

# One resource per manifest, keyed like "apps/Deployment/prod/cart".
resource "terraform_data" "manifest" {
  for_each = data.celyaml_render.app.manifests
  input    = each.value
}

output "manifest_ids" {
  value = keys(terraform_data.manifest) # "_/Service/prod/cart", ..., "apps/Deployment/prod/catalog"
}
