// Package apiserver holds the tests that compare celyaml with a real
// Kubernetes API server, the oracle of `validate`: a corpus of documents
// sent both to the server (a server-side dry run) and to package validate
// must get the same verdict and the same field paths, every example's
// objects survive a server-side apply round trip, and a render with values
// not known yet checks what is known.
//
// The tests carry the build tag apiserver and need a server:
//
//	scripts/kube-apiserver.sh make test-apiserver
//
// builds kube-apiserver (tools/kube-apiserver), starts it with etcd on
// 127.0.0.1 and runs them with KUBECONFIG set. Run without one they skip,
// except under CI=true, where they fail.
package apiserver
