output "manifests" {
  description = "The rendered manifests keyed by group/Kind/namespace/name."
  value       = local.manifests
}

output "manifest_ids" {
  description = "The keys of manifests."
  value       = keys(local.manifests)
}
