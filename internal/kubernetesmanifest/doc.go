// Package kubernetesmanifest holds tests only: the scenario matrix that
// runs the manifests of provider::celyaml::manifests through the real
// hashicorp/kubernetes provider's kubernetes_manifest resource, against a
// real kube-apiserver, under Terraform and under OpenTofu. It is the oracle
// for the unknown values the functions return at plan: a manifest whose
// keys are known must plan with kubernetes_manifest, apply, land on the
// server as the template says, plan empty, update in place when an input
// changes, and plan empty again.
//
// Each scenario (scenarios_test.go) is a template whose inputs come from
// terraform_data outputs, unknown until apply: as Terraform typed them
// (typed inputs) or through jsondecode (dynamic), each with and without a
// $schema that declares them. A root configuration holds many scenarios,
// each as its own resources, so the whole matrix is six CLI runs per
// configuration: two configurations of the scenarios that plan per CLI,
// both CLIs at once, and one of those that cannot, planned twice (the
// plan that fails, then the plan without them). Those
// are listed once, in cannotPlan, and the test asserts exactly that list;
// the twin-* scenarios write their shapes in plain HCL, to show which
// limits are kubernetes_manifest's own.
//
// The tests carry the build tag kubernetesmanifest and need a server:
//
//	scripts/kube-apiserver.sh make test-kubernetes-manifest
//
// builds what is missing into the cache folder (the kubernetes provider with
// scripts/build-kubernetes-provider.sh, OpenTofu with scripts/build-tofu.sh),
// starts kube-apiserver with etcd on 127.0.0.1 and runs them with KUBECONFIG
// set. Run without one they skip, except under CI=true, where they fail.
// KUBERNETES_MANIFEST_RUN, a regular expression, runs only the scenarios
// whose name it matches (KUBERNETES_MANIFEST_RUN='^list-').
package kubernetesmanifest
