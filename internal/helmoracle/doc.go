// Package helmoracle holds tests only: the real `helm` (Helm v4, built
// from tools/helm by scripts/build-helm.sh) as the oracle of `$chart` and
// the Helm that runs `celyaml post-render`.
//
//   - oracle_test.go renders real charts (internal/testcharts: podinfo,
//     cert-manager, kyverno with its subcharts, from Go module zips) with
//     their default values and two more value sets each, once with
//     `celyaml render` of a template whose document is `$chart` and once
//     with `helm template`, and compares the two streams object by object
//     and in order, YAML formatting aside: both are read as kubectl reads
//     a stream (k8s.io/apimachinery's YAML reader, sigs.k8s.io/yaml).
//     The differences, if any, are the table of known_test.go, which the CLI
//     guide lists; the test fails if one appears or vanishes.
//   - postrender_test.go runs `helm template --post-renderer` with a
//     Helm 4 post-renderer plugin (type postrenderer/v1) whose command is
//     `celyaml post-render`.
//
// The tests carry the build tag helmoracle:
//
//	make test-helm
//
// builds helm into the cache folder when it is missing (a few minutes
// once per machine), fetches the charts' modules through the Go module
// proxy into the module cache (once), and runs them.
package helmoracle
