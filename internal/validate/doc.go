// Package validate checks Kubernetes manifests against CustomResourceDefinition
// schemas and saved /openapi/v3 documents the way the API server checks a
// server-side apply that creates them (Options.Request: or a create), in
// the server's order and with Kubernetes' own code from
// k8s.io/apiextensions-apiserver and the field manager's structured-merge-diff:
// on a copy of the document, an apply's shape is checked by the
// field manager first; under a create unknown fields are pruned (and
// refused, as strict field validation refuses them) and nulls the schema
// does not allow are dropped; the schema's defaults are filled in
// (nested ones included; not for built-in kinds, which the server defaults
// in Go), a status subresource's status is reset, and then the structural
// schema (types, required, enum, pattern, format, bounds), metadata, list
// types and the x-kubernetes-validations CEL rules are checked on the
// defaulted object. It works on engine values and knows nothing of
// Terraform, so the provider's validate function and the command line can
// share it.
//
// Coverage is per group and kind, from the kinds a schema document defines
// (a CRD, an /openapi/v3 document) and, below them, the built-in kinds of
// the Kubernetes minor of the provider's Kubernetes libraries, whose
// schemas `make builtin-schemas` generates into package builtin. Load only indexes the documents' kinds, and
// the built-in kinds are indexed when a document first needs them; a
// kind's validators are built the first time a document of it is checked.
//
// Messages name the whole manifest ID and every key of a field path, as
// the API server names them at apply, and never a value: no caller can
// mark the documents sensitive (Terraform passes a function no
// sensitivity). Transition rules (those reading oldSelf) are skipped:
// there is no old object. The caller's documents are never changed.
package validate
