# Goal 5: one celyaml_render data source rendering the specification's
# kitchen sink (two services, as in the seed).
terraform {
  required_providers {
    celyaml = { source = "celyaml/celyaml" }
  }
}

data "celyaml_render" "kitchen_sink" {
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
  value = length(data.celyaml_render.kitchen_sink.yaml)
}
