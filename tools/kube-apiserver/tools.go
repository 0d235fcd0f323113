//go:build tools

// Package kubeapiserver pins kube-apiserver, the real API server that the
// differential tests in internal/apiserver compare `validate` with. It is a
// module of its own so that k8s.io/kubernetes and the hundreds of modules it
// needs never enter the provider's go.mod. scripts/kube-apiserver.sh builds it
// with `go build k8s.io/kubernetes/cmd/kube-apiserver` from this directory.
package kubeapiserver

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
)
