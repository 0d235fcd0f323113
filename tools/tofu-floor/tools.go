//go:build tools

// Package tofufloor pins the oldest OpenTofu the provider claims to support
// (README "Requirements", templates/index.md.tmpl), whose `tofu` binary the
// acceptance tests run against once more. It is a module of its own, like
// tools/tofu, so that OpenTofu's modules never enter the provider's go.mod;
// scripts/build-cli.sh builds it into the cache folder outside the clone.
//
// OpenTofu's go.mod replaces github.com/hashicorp/hcl/v2 with its fork; a
// replace only applies in the main module, so go.mod here repeats the line
// from OpenTofu's go.mod at this version.
package tofufloor

import (
	_ "github.com/opentofu/opentofu/cmd/tofu"
)
