# Goal 5, split: the plan of one-noop against the empty provider built with
# -tags celyamldeps (bench/emptyprovider/deps.go), which links celyaml's
# dependencies and so runs their package initialisation at each of
# Terraform's provider launches, and still does nothing. one-noop-deps minus
# one-noop is what linking the dependencies costs; one-celyaml minus
# one-noop-deps is celyaml's own work.
terraform {
  required_providers {
    bench = { source = "bench/benchdeps" }
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
