//go:build tools

// Package tools pins the versions of the Go tools the build runs, so that
// `go run` uses the version recorded in go.mod and go.sum instead of
// whatever happens to be installed.
package tools

import (
	// tfplugindocs generates docs/ from templates/, examples/ and the
	// provider's schema (make docs, make docs-check).
	_ "github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs"
)
