//go:build tools

// Package helm pins Helm v4, whose `helm` binary is the oracle the chart
// tests compare `$chart` with (`helm template` of the same chart and values)
// and the Helm that runs `celyaml post-render` as a post-renderer plugin. It
// is a module of its own so that Helm's hundreds of modules never enter the
// provider's go.mod and go.sum beyond what the Helm SDK `$chart` uses needs.
// scripts/build-helm.sh builds it from this directory into a cache folder
// outside the clone.
package helm

import (
	_ "helm.sh/helm/v4/cmd/helm"
)
