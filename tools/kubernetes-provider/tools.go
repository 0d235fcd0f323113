//go:build tools

// Package kubernetesprovider pins the hashicorp/kubernetes Terraform
// provider, whose kubernetes_manifest resource is the oracle for the
// manifests celyaml returns at plan (internal/kubernetesmanifest). It is a
// module of its own so that the provider's hundreds of modules never enter
// celyaml's go.mod and go.sum. scripts/build-kubernetes-provider.sh builds
// it from this directory into a cache folder outside the clone.
package kubernetesprovider

import (
	_ "github.com/hashicorp/terraform-provider-kubernetes"
)
