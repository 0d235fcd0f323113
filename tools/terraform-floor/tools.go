//go:build tools

// Package terraformfloor pins the oldest Terraform the provider claims to
// support (README "Requirements", templates/index.md.tmpl), whose
// `terraform` binary the acceptance tests and the examples run against
// once more. It is a module of its own so that Terraform's hundreds of
// modules never enter the provider's go.mod and go.sum.
// scripts/build-cli.sh builds it from this directory into the cache folder
// outside the clone; TestClaimedVersions (internal/provider) fails when the
// README or the documentation claims a floor other than the one pinned here.
package terraformfloor

import (
	_ "github.com/hashicorp/terraform"
)
