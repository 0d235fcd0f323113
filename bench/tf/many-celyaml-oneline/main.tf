# Per-call goal 3's floor for the data source: 100 celyaml_render reads of
# a one-line template, against which the 100 kitchen-sink reads of
# many-celyaml are weighed (provider CPU, the provider reattached).
terraform {
  required_providers {
    celyaml = { source = "celyaml/celyaml" }
  }
}

data "celyaml_render" "line" {
  count    = 100
  template = "a: ${count.index}\n"
}

output "bytes" {
  value = sum([for d in data.celyaml_render.line : length(d.yaml)])
}
