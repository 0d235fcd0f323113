package engine

import (
	"context"
	"testing"
)

// fuzzK8sBundle is what FuzzTransform's transforms change: Kubernetes
// objects of every shape a transform edits, as plain documents whose
// values the compiled template shares with every render.
const fuzzK8sBundle = `apiVersion: v1
kind: Namespace
metadata: {name: up}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: sa, namespace: up}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: b}
subjects: [{kind: ServiceAccount, name: sa, namespace: up}, {kind: ServiceAccount, name: default}, {kind: User, name: u}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: up, labels: {app: web}}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      initContainers: [{name: init, image: "r.local:5000/init:1@sha256:ab"}]
      containers: [{name: app, image: app:1}, {name: side, image: side}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj}
spec:
  schedule: "@daily"
  jobTemplate: {spec: {template: {spec: {containers: [{name: c, image: app:2}]}}}}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, ports: [{port: 80}]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: w}
webhooks: [{name: w.x.io, clientConfig: {service: {name: web, namespace: default}}}]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ws.x.io}
spec: {group: x.io, names: {kind: W}, scope: Cluster}
---
apiVersion: x.io/v1
kind: W
metadata: {name: w}
`

// FuzzTransform applies any transform document (reference §10), or any
// document after a removing overlay (reference §8), to a fixed bundle of
// Kubernetes objects. Properties: the engine never panics or hangs; an
// error is an *Error positioned in the template; a success encodes as
// YAML and JSON and renders again to the same bytes; and the bundle
// rendered alone afterwards is unchanged, so no transform ever changes the
// values the compiled template shares between renders.
func FuzzTransform(f *testing.F) {
	for _, s := range []string{
		"$transform: {namespace: edge}\n",
		"$transform: {labels: {a: b}, selectorLabels: {s: t}, annotations: {o: p}}\n",
		"$transform:\n  images:\n    - {name: app, newTag: '3'}\n    - {name: 'r.local:5000/init', newName: m/init, digest: 'sha256:cd'}\n",
		"$let: {ns: \"'x'\"}\n$transform: {namespace: {$eval: '${{ ns }}'}}\n",
		"$transform: {namespace: edge, labels: {a: b}}\n---\n$transform: {namespace: other}\n",
		"$overlay: doc.kind == 'W'\n$remove: true\n---\n$transform: {namespace: edge}\n",
		"$transform: {namepsace: x}\n",
		"$transform: {images: [{newTag: x}]}\n",
		"$transform: {namespace: edge, keepNamespace: [{namespace: up}, {kind: Service, name: web}]}\n",
		"$transform: {namespace: edge, keepNamespace: [{kind: ServiceAccount, namespace: up, name: sa}]}\n",
		"$transform: {namespace: edge, keepNamespace: [{knd: x}]}\n",
		"$transform: {keepNamespace: [{namespace: up}]}\n",
		"$transform: {images: [{name: ap, newTag: '3'}]}\n",
	} {
		f.Add([]byte(s))
	}
	e, bundle, want := fuzzEditedBundleBase(f, fuzzK8sBundle)
	f.Fuzz(func(t *testing.T, doc []byte) {
		renderEditedBundle(t, e, context.Background(), fuzzK8sBundle+"---\n", doc, bundle, want, "transform")
	})
}
