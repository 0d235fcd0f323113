# Per-call goal 3's floor: 100 trivial eval() calls, against which the 100
# render_file() calls of many-function are weighed (provider CPU, the
# provider reattached).
terraform {
  required_providers {
    celyaml = { source = "celyaml/celyaml" }
  }
}

locals {
  values = [for i in range(100) : provider::celyaml::eval("x + 1", { x = i })]
}

output "sum" {
  value = sum(local.values)
}
