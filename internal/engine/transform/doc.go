// Package transform applies the Kubernetes transforms of reference §10
// (`$transform`): a namespace, labels, selector labels, annotations and
// image rewrites, over rendered documents, with kustomize's semantics
// (kustomize's own library is the reference in tests).
//
// It is a leaf over package value: pure functions from documents to
// documents. Documents are never changed in place, since a rendered
// document shares mappings with variables, with overlay patches and with
// other documents; what a transform changes is copied on the way down.
//
// Which kinds are namespaced comes from Kubernetes itself: the generated
// table of built-in kinds is written from a real kube-apiserver's discovery
// by the apiserver-tagged test in internal/apiserver, which also checks it
// against the server on every run. CustomResourceDefinitions among the
// documents decide their own kinds' scope.
package transform
