//go:build tools

// Package lint pins golangci-lint. It is a module of its own so that the
// hundreds of modules the linter needs never enter the provider's go.mod and
// go.sum, where they could raise the versions of libraries the provider is
// built with (golang.org/x/tools and friends). `make lint` builds it with
// `go build -o tools/lint/bin/golangci-lint` from this directory.
package lint

import (
	_ "github.com/golangci/golangci-lint/v2/cmd/golangci-lint"
)
