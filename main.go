// Command terraform-provider-celyaml serves the celyaml Terraform provider.
package main

import (
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/celyaml/terraform-provider-celyaml/internal/provider"
	"github.com/celyaml/terraform-provider-celyaml/internal/startup"
)

// version and commit are set by goreleaser through -ldflags.
var (
	version = "dev"
	commit  = "none"
)

func main() {
	startup.Serve() // a server lives for a whole command: fewer collections
	startup.Done()
	var debug bool
	flag.BoolVar(&debug, "debug", false, "start the provider in debug mode for a debugger such as delve; it prints a TF_REATTACH_PROVIDERS value to use with terraform")
	flag.Parse()

	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	err := tf6server.Serve("registry.terraform.io/celyaml/celyaml", provider.NewServer(version), opts...)
	if err != nil {
		log.Fatalf("terraform-provider-celyaml %s (%s): %s", version, commit, err)
	}
}
