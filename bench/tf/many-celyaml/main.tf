# Goal 6: 100 celyaml_render data sources, each rendering the kitchen sink
# with 20 services (2,000 services in all).
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
}

data "celyaml_render" "svc" {
  count         = 100
  template_file = "${path.module}/../../../internal/engine/testdata/bench/kitchen_sink.yaml"
  context = {
    env      = "prod"
    region   = "region-${count.index}"
    services = local.services
  }
}

output "bytes" {
  value = sum([for d in data.celyaml_render.svc : length(d.yaml)])
}
