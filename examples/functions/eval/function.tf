# eval(expression, context) evaluates one CEL expression with the same
# libraries as templates: Kubernetes quantities, semver, IPs, regexes, ...
output "needs_big_node" {
  value = provider::celyaml::eval(
    "quantity(memory).compareTo(quantity('8Gi')) > 0",
    { memory = "12Gi" }
  ) # true
}

output "subnet_has_gateway" {
  value = provider::celyaml::eval("cidr(subnet).containsIP(ip(gateway))", {
    subnet  = "10.0.0.0/24"
    gateway = "10.0.0.1"
  }) # true
}

output "config_checksum" {
  value = provider::celyaml::eval("sha256(json.encode(config))", {
    config = { log_level = "info", workers = 4 }
  })
}
