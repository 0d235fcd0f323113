// Package chart renders a Helm chart as `helm template` does, with Helm's
// own Go SDK (helm.sh/helm/v4): the `$chart` document of the language
// reference (§11). It knows nothing of templates or of Terraform: the
// engine's `$chart` directive, `celyaml check` and the command line call
// Load, then Render (or Defaults and Schema).
//
// Loading reads the chart's files through Files, so that the engine's
// Loader, its include roots and its size limit (MaxTemplateBytes) apply
// to a chart as to an included file: a chart directory is walked entry by
// entry (a symlink must resolve inside the chart), a .tgz is decompressed
// with the same budget (nested subchart archives counted too), and only
// then does Helm's loader see the files.
//
// Why not pkg/action: `helm template` is pkg/action's Install with a
// client-only dry run. Its rendering part (ProcessDependencies,
// ToRenderValues, the Render of Helm's engine package, SortManifests, the crds/
// files, the hooks) is what Render calls, in the same order and with the
// same arguments, so the documents are the same; the rest of Install is
// release bookkeeping (storage drivers, a fake kube client, the release
// record), which renders nothing and links Helm's storage, kube client
// and kubectl packages. Measured on a program that only renders a chart
// (go build, linux/amd64): pkg/engine and the sorting 52.7 MB, through
// pkg/action 114.7 MB; the provider grew from 62.5 MB to 83.0 MB.
// Schema validation is Helm's rule (each chart's values.schema.json on
// its values, subcharts under their names) with this package's compiler,
// so that no URL is fetched and no error shows a value.
package chart
