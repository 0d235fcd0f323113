# deep_merge of two 10,000-key objects, each value a small object that
# merges key by key (make bench; compare with merge-10k).
terraform {
  required_providers {
    celyaml = { source = "celyaml/celyaml" }
  }
}

locals {
  # range() gives at most 1,024 values: 100 × 100.
  ids  = flatten([for i in range(100) : [for j in range(100) : i * 100 + j]])
  base = { for i in local.ids : "key${i}" => { a = i, b = "base" } }
  over = { for i in local.ids : "key${i}" => { b = "over", c = i % 2 == 0 } }
}

output "keys" {
  value = length(provider::celyaml::deep_merge(local.base, local.over))
}
