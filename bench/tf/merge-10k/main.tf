# For comparison with deep-merge-10k: the same two 10,000-key objects
# merged by Terraform's shallow merge(), so that building the objects is
# counted in both and the difference is deep_merge's own.
locals {
  # range() gives at most 1,024 values: 100 × 100.
  ids  = flatten([for i in range(100) : [for j in range(100) : i * 100 + j]])
  base = { for i in local.ids : "key${i}" => { a = i, b = "base" } }
  over = { for i in local.ids : "key${i}" => { b = "over", c = i % 2 == 0 } }
}

output "keys" {
  value = length(merge(local.base, local.over))
}
