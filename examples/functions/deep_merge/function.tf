# deep_merge(values...) layers values as Helm's -f a.yaml -f b.yaml does:
# objects merge at any depth and later values win, lists replace, and a
# null deletes. Terraform's merge() is shallow and would drop
# image.repository here.
locals {
  defaults = {
    image     = { repository = "nginx", tag = "latest" }
    replicas  = 1
    ports     = [80]
    debugMode = true
  }
  prod = {
    image    = { tag = "1.27" }
    replicas = 3
    ports    = [80, 443]
  }
}

output "values" {
  value = provider::celyaml::deep_merge(local.defaults, local.prod, { debugMode = null })
  # { image = { repository = "nginx", tag = "1.27" }, ports = [80, 443], replicas = 3 }
}

output "image" {
  value = "${provider::celyaml::deep_merge(local.defaults, local.prod).image.repository}:${provider::celyaml::deep_merge(local.defaults, local.prod).image.tag}"
  # "nginx:1.27"
}
