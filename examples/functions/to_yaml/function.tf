# to_yaml(value) writes one value as YAML by the output's rules: keys
# sorted, and strings that a YAML 1.1 reader would take for a bool or a
# number quoted, which yamlencode() does not do.
output "config" {
  value = provider::celyaml::to_yaml({
    feature = { enabled = "yes", mode = "0644" }
    ports   = [80, 443]
  })
}
