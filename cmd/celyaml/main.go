// Command celyaml renders, evaluates and checks CEL-YAML templates with the
// same engine as the Terraform provider, and serves editors as a language
// server (celyaml lsp). The commands are package internal/cli's; the CLI
// guide (docs/guides/cli.md) is their interface.
package main

import (
	"os"

	"github.com/celyaml/terraform-provider-celyaml/internal/cli"
	"github.com/celyaml/terraform-provider-celyaml/internal/startup"
)

// version and commit are set by goreleaser through -ldflags, as the
// provider's are.
var (
	version = "dev"
	commit  = "none"
)

func main() {
	startup.Done()
	cli.Version, cli.Commit = version, commit
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
