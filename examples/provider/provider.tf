terraform {
  required_version = ">= 1.8" # provider functions need Terraform 1.8+ (OpenTofu 1.7+)
  required_providers {
    celyaml = {
      source = "celyaml/celyaml"
    }
  }
}

# The provider has no settings; the block is optional.
provider "celyaml" {}
