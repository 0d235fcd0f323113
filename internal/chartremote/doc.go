// Package chartremote fetches pinned remote Helm charts, the remote form
// of `$chart` (reference §11): one exact version of a chart from an HTTP
// chart repository (its index.yaml) or an OCI registry, with an optional
// digest, downloaded once into a cache folder and read from there
// afterwards without any network.
//
// The transport and the formats are Helm's own (helm.sh/helm/v4: the
// getter, repo/v1 and registry packages); this package adds the pinning,
// the cache (a file written to a temporary name in the same folder and
// renamed, so that processes may race), the size bound and the caller's
// cancellation (enforced on the connections Helm's clients use, since
// they read whole responses and take no context), and errors that name
// the repository, the chart and the version but never credentials.
//
// It imports nothing from Terraform or the engine: the engine's `$chart`
// calls Fetch through its option for remote charts.
package chartremote
