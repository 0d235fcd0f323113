//go:build tools

// Package goreleaser pins GoReleaser, which builds the release archives in
// the layout the Terraform Registry expects (.goreleaser.yml). It is a
// module of its own so that GoReleaser's many modules never enter the
// provider's go.mod. scripts/release-snapshot.sh builds it from this
// directory into the cache folder outside the clone, checks the
// configuration and builds a snapshot release with it (.ci/run).
//
// v2.17.0 is the newest release whose go.mod asks for no newer Go than the
// one the project builds with (v2.18 needs Go 1.27).
package goreleaser

import (
	_ "github.com/goreleaser/goreleaser/v2"
)
