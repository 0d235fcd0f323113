# Goal 5: the same plan as one-celyaml against an empty framework provider
# (bench/emptyprovider), whose data source takes the same arguments and does
# nothing. The difference between the two plans is what celyaml costs.
terraform {
  required_providers {
    bench = { source = "bench/bench" }
  }
}

data "bench_noop" "kitchen_sink" {
  template_file = "${path.module}/../../../internal/engine/testdata/bench/kitchen_sink.yaml"
  context = {
    env    = "prod"
    region = "us-east-1"
    services = [
      { name = "cart", ha = true, port = 8080, tags = { "cost-center" = "1000", owner = "team-0", tier = "web" } },
      { name = "catalog", ha = false, port = 8081, tags = { "cost-center" = "1001", owner = "team-1", tier = "api" } },
    ]
  }
}

output "bytes" {
  value = length(data.bench_noop.kitchen_sink.yaml)
}
