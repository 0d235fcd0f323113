# A module with its own template files. It is called with a relative
# source, and calls a module of its own; every file it reads is found
# relative to the module, wherever Terraform runs.
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

data "celyaml_render" "app" {
  template_file = "${path.module}/templates/app.yaml"
  context = {
    name = var.name
  }
}

module "inner" {
  source = "./inner"
  name   = var.name
}

output "result" {
  value = data.celyaml_render.app.result
}

output "function_result" {
  value = provider::celyaml::render_file("${path.module}/templates/app.yaml", { name = var.name })
}

output "inner_result" {
  value = module.inner.result
}
