# Goal 6, for reference: the 100 data sources of many-celyaml against the
# empty framework provider, whose data source does nothing. It shows what
# Terraform itself costs per data source with this context.
terraform {
  required_providers {
    bench = { source = "bench/bench" }
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

data "bench_noop" "svc" {
  count         = 100
  template_file = "${path.module}/../../../internal/engine/testdata/bench/kitchen_sink.yaml"
  context = {
    env      = "prod"
    region   = "region-${count.index}"
    services = local.services
  }
}

output "bytes" {
  value = sum([for d in data.bench_noop.svc : length(d.yaml)])
}
