# Per-call cost: the same 100 renders with templatefile() of a text
# template (%{ for } YAML text, no yamlencode), the fastest thing a user
# can write, the comparison for many-function and many-celyaml.
locals {
  services = [for i in range(20) : {
    name = "svc${i}"
    ha   = i % 3 != 0
    port = 8000 + i
    tags = { "cost-center" = "${1000 + i}", owner = "team-${i % 13}", tier = ["web", "api", "batch"][i % 3] }
  }]
  rendered = [for i in range(100) : templatefile("${path.module}/kitchen_sink.yaml.tftpl", {
    env      = "prod"
    region   = "region-${i}"
    services = local.services
  })]
}

output "bytes" {
  value = sum([for s in local.rendered : length(s)])
}
