// Package validate checks Kubernetes manifests against CustomResourceDefinition
// schemas the way the API server checks a create: the structural schema
// (types, required, enum, pattern, format, bounds, unknown fields) and the
// x-kubernetes-validations CEL rules, with Kubernetes' own code from
// k8s.io/apiextensions-apiserver. It works on engine values and knows nothing
// of Terraform, so the provider's validate function and the command line can
// share it.
//
// Transition rules (those reading oldSelf) are skipped: there is no old
// object at create. Defaults are not applied and nothing is pruned from the
// documents; they are only checked.
package validate
