package kustomize

import "strings"

// deliberateDiff is a difference between kustomize build and celyaml
// render that the language guide names as deliberate. The test fails if
// one of them vanishes, so the table stays true.
type deliberateDiff struct {
	// in is the scenarios ("bundle/scenario") that show it.
	in []string
	// line is the difference as differences() prints it.
	line string
	// why: the reason, and where the language guide says so.
	why string
}

func (d deliberateDiff) applies(key string) bool {
	for _, k := range d.in {
		if k == key || (strings.HasSuffix(k, "/*") && strings.HasPrefix(key, strings.TrimSuffix(k, "*"))) {
			return true
		}
	}
	return false
}

// deliberate is every difference the comparison finds. The language
// guide lists them under §10 "Deliberate differences from kustomize";
// probes.yaml holds one object for each that no release-shaped bundle
// shows.
var deliberate = []deliberateDiff{
	{
		in:   []string{"operator/namespace", "operator/all"},
		line: "example.com/WidgetPolicy/_/default-policy: only in celyaml",
		why:  "a custom kind's scope comes from its CustomResourceDefinition in the render (scope: Cluster), so the WidgetPolicy gets no namespace; kustomize treats every kind it does not know as namespaced",
	},
	{
		in:   []string{"operator/namespace", "operator/all"},
		line: "example.com/WidgetPolicy/edge/default-policy: only in kustomize",
		why:  "the same object, which kustomize puts in the namespace",
	},
	{
		in:   []string{"probes/namespace", "probes/all"},
		line: `apiregistration.k8s.io/APIService/_/v1.probes.example.com: spec.service: kustomize {"namespace":"edge"}, celyaml absent`,
		why:  "a local APIService (no spec.service) keeps none; kustomize creates a spec.service holding only a namespace, which names no Service",
	},
	{
		in:   []string{"probes/namespace", "probes/all"},
		line: `rbac.authorization.k8s.io/RoleBinding/edge/app-viewers: subjects[1].namespace: kustomize "edge", celyaml "probes"`,
		why:  "only subjects of kind ServiceAccount follow a ServiceAccount of the render; kustomize also moves a User subject that has the ServiceAccount's name",
	},
	{
		in:   []string{"probes/images"},
		line: `_/Pod/probes/app: spec.containers[1].image: kustomize "registry-example.com/app:2.0", celyaml "registry-example.com/app:1.0"`,
		why:  "an image's name is compared as text; kustomize reads it as a regular expression, so registry.example.com/app also matches registry-example.com/app",
	},
	{
		in:   []string{"probes/images"},
		line: `_/Pod/probes/app: spec.ephemeralContainers[0].image: kustomize "registry.example.com/app:1.0", celyaml "registry.example.com/app:2.0"`,
		why:  "ephemeral containers' images are rewritten too; kustomize leaves them alone",
	},
	{
		in:   []string{"probes/all"},
		line: `_/Pod/edge/app: spec.containers[1].image: kustomize "registry-example.com/app:2.0", celyaml "registry-example.com/app:1.0"`,
		why:  "the image name compared as text, with every transform at once",
	},
	{
		in:   []string{"probes/all"},
		line: `_/Pod/edge/app: spec.ephemeralContainers[0].image: kustomize "registry.example.com/app:1.0", celyaml "registry.example.com/app:2.0"`,
		why:  "ephemeral containers rewritten, with every transform at once",
	},
	{
		in:   []string{"argocd/namespace", "argocd/all"},
		line: `rbac.authorization.k8s.io/ClusterRoleBinding/_/argocd-application-controller: subjects[0].namespace: kustomize "argocd", celyaml "edge"`,
		why:  "a ServiceAccount subject follows the ServiceAccount of the render it names, which writes no namespace (the file is applied with -n), whatever namespace the subject writes; kustomize leaves argocd there, and the controller loses its cluster permissions",
	},
	{
		in:   []string{"argocd/namespace", "argocd/all"},
		line: `rbac.authorization.k8s.io/ClusterRoleBinding/_/argocd-applicationset-controller: subjects[0].namespace: kustomize "argocd", celyaml "edge"`,
		why:  "the same rule, the ApplicationSet controller",
	},
	{
		in:   []string{"argocd/namespace", "argocd/all"},
		line: `rbac.authorization.k8s.io/ClusterRoleBinding/_/argocd-server: subjects[0].namespace: kustomize "argocd", celyaml "edge"`,
		why:  "the same rule, the API server",
	},
	{
		in:   []string{"absent/selectorLabels"},
		line: `_/Service/absent/external-db: spec.selector: kustomize {"app.kubernetes.io/part-of":"edge"}, celyaml absent`,
		why:  "a Service without a selector has its endpoints given by hand (an EndpointSlice); kustomize gives it a selector of the labels alone, which selects every pod that has them and hands its endpoints to the control plane",
	},
	{
		in:   []string{"absent/all"},
		line: `_/Service/edge/external-db: spec.selector: kustomize {"app.kubernetes.io/part-of":"edge"}, celyaml absent`,
		why:  "the same Service, with every transform at once",
	},
	{
		in:   []string{"absent/selectorLabels"},
		line: `_/ReplicationController/absent/legacy: spec.selector: kustomize {"app.kubernetes.io/part-of":"edge"}, celyaml absent`,
		why:  "a ReplicationController without a selector is given its pod template's labels by the API server, the new ones among them; kustomize gives it a selector of the labels alone, which takes every pod that has them, other controllers' too",
	},
	{
		in:   []string{"absent/all"},
		line: `_/ReplicationController/edge/legacy: spec.selector: kustomize {"app.kubernetes.io/part-of":"edge"}, celyaml absent`,
		why:  "the same ReplicationController, with every transform at once",
	},
	{
		in:   []string{"helmapp/selectorLabels"},
		line: `_/Service/_/web-podinfo-backend: spec.selector: kustomize {"app.kubernetes.io/part-of":"edge"}, celyaml absent`,
		why:  "an ExternalName Service selects no pods either: no selector is created for it",
	},
	{
		in:   []string{"helmapp/all"},
		line: `_/Service/edge/web-podinfo-backend: spec.selector: kustomize {"app.kubernetes.io/part-of":"edge"}, celyaml absent`,
		why:  "the same Service, with every transform at once",
	},
}
