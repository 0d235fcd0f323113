// Real Helm charts, read from these modules' zips in the module cache by
// internal/helmoracle (go mod download -json): the oracle tests render
// each with `$chart` and with the real `helm template` and compare. The
// charts are too big to copy into the repository, and nothing of them is;
// this module is never built.
//
//   - podinfo (charts/podinfo, chart 6.9.2): a plain application chart;
//     the module has no tag for it, so a pseudo-version pins the commit.
//   - cert-manager (deploy/charts/cert-manager): CRDs in templates, hooks,
//     values.schema.json; its Chart.yaml says v0.0.0 until the release
//     tool stamps it, as the test does.
//   - kyverno v1.13.4 (charts/kyverno, chart 3.3.6): in-tree subcharts
//     (charts/crds, charts/grafana) behind conditions. Later kyverno
//     charts also depend on charts from remote repositories that are not
//     in the module, which `helm template` refuses without them.
module github.com/celyaml/terraform-provider-celyaml/tools/helmcharts

go 1.26.0

require (
	github.com/cert-manager/cert-manager v1.21.2
	github.com/kyverno/kyverno v1.13.4
	github.com/stefanprodan/podinfo v1.8.1-0.20250910200901-e86405a8674e
)
