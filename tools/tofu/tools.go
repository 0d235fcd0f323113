//go:build tools

// Package tofu pins OpenTofu, whose `tofu` binary the acceptance tests and
// the examples run a second time against (the first time is Terraform). It
// is a module of its own so that OpenTofu's hundreds of modules never enter
// the provider's go.mod and go.sum. scripts/build-tofu.sh builds it from
// this directory into a cache folder outside the clone.
//
// OpenTofu's own go.mod replaces github.com/hashicorp/hcl/v2 with its fork,
// github.com/opentofu/hcl/v2; a replace only applies in the main module, so
// go.mod here repeats it (that is also why `go install
// github.com/opentofu/opentofu/cmd/tofu@VERSION` refuses to build it). When
// raising the OpenTofu version, copy the replace line from OpenTofu's go.mod
// at that version.
package tofu

import (
	_ "github.com/opentofu/opentofu/cmd/tofu"
)
