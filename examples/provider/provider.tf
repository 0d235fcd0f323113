terraform {
  required_version = ">= 1.8" # provider functions need Terraform 1.8+; OpenTofu checks it against its own version
  required_providers {
    celyaml = {
      source = "celyaml/celyaml"
    }
  }
}

# The provider has no settings; the block is optional.
provider "celyaml" {}
