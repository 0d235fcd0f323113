# Launch cost: one trivial provider function call, against one-noop-function
# (the same plan with an empty framework provider's function).
terraform {
  required_providers {
    celyaml = { source = "celyaml/celyaml" }
  }
}

output "v" {
  value = provider::celyaml::eval("x + 1", { x = 1 })
}
