# validate(documents, schemas) checks documents as the Kubernetes API server
# would check a server-side apply that creates them (what kubernetes_manifest
# sends): the CRD's structural schema and its x-kubernetes-validations CEL
# rules. It returns the documents unchanged, so
# it sits in front of manifests() and for_each; a document the API server
# would refuse fails the plan instead of the apply.
locals {
  crds = yamldecode(file("${path.module}/widget-crd.yaml"))
  docs = provider::celyaml::validate([
    { apiVersion = "example.com/v1", kind = "Widget", metadata = { name = "small" }, spec = { replicas = 2, minReplicas = 1 } },
    { apiVersion = "v1", kind = "ConfigMap", metadata = { name = "settings" }, data = { mode = "fast" } }, # a built-in kind: checked against the built-in schemas
  ], local.crds)
}

output "manifest_ids" {
  value = keys(provider::celyaml::manifests(local.docs))
  # ["_/ConfigMap/_/settings", "example.com/Widget/_/small"]
}

# With spec = { replicas = 2, minReplicas = 3 } the plan would fail with:
#
#   Invalid value for "documents" parameter: the API server would refuse
#   these documents (1 violation):
#   example.com/Widget/_/small: spec: Invalid value: minReplicas must not exceed replicas
