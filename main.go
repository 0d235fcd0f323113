// Command terraform-provider-celyaml serves the celyaml Terraform provider.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/celyaml/terraform-provider-celyaml/internal/provider"
)

// version and commit are set by goreleaser through -ldflags.
var (
	version = "dev"
	commit  = "none"
)

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "start the provider in debug mode for a debugger such as delve; it prints a TF_REATTACH_PROVIDERS value to use with terraform")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         "registry.terraform.io/celyaml/celyaml",
		Debug:           debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatalf("terraform-provider-celyaml %s (%s): %s", version, commit, err)
	}
}
