// Released CustomResourceDefinitions and their projects' own examples,
// read from these modules' zips in the module cache by
// internal/testcrds (go mod download -json): the start-up benchmarks of
// validate and the API-server corpus use them. Nothing of them is copied
// into the repository; this module is never built.
module github.com/celyaml/terraform-provider-celyaml/tools/crds

go 1.26.0

require (
	github.com/argoproj/argo-cd/v3 v3.1.1
	github.com/external-secrets/external-secrets v0.19.2
	github.com/kedacore/keda/v2 v2.17.2
	github.com/prometheus-operator/prometheus-operator v0.84.0
	knative.dev/eventing v0.46.0
	knative.dev/serving v0.46.0
	sigs.k8s.io/gateway-api v1.3.0
)
