# For comparison with many-celyaml: the same 100 renders through the
# provider function render_file(), whose result is one value (no state,
# no extra computed attributes).
terraform {
  required_providers {
    celyaml = { source = "celyaml/celyaml" }
  }
}

locals {
  services = [for i in range(20) : {
    name = "svc${i}"
    ha   = i % 3 != 0
    port = 8000 + i
    tags = { "cost-center" = "${1000 + i}", owner = "team-${i % 13}", tier = ["web", "api", "batch"][i % 3] }
  }]
  rendered = [for i in range(100) : provider::celyaml::render_file("${path.module}/../../../internal/engine/testdata/bench/kitchen_sink.yaml", {
    env      = "prod"
    region   = "region-${i}"
    services = local.services
  })]
}

output "items" {
  value = sum([for r in local.rendered : length(r.items)])
}
