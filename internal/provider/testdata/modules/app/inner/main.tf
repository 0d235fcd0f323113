# A nested module whose inline template includes a file next to it through
# base_dir = path.module.
terraform {
  required_providers {
    celyaml = {
      source = "celyaml/celyaml"
    }
  }
}

variable "name" {
  type = string
}

data "celyaml_render" "inner" {
  template = <<-EOT
    port:
      $include: snippets/port.yaml
    owner:
      $eval: "$${{ name }}"
  EOT
  base_dir = path.module
  context = {
    name = var.name
  }
}

output "result" {
  value = data.celyaml_render.inner.result
}
