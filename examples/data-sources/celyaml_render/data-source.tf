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
