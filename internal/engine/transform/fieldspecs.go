package transform

// Where each transform writes, per kind: kustomize's default field specs
// (its builtin plugin configuration for commonLabels, labels,
// commonAnnotations, namespace and images), which this package follows so
// that a transform gives what `kustomize build` gives. A spec applies to
// the documents whose kind is Kind and whose apiVersion has Group and
// Version, each where set. Its path is walked key by key; a sequence on the
// way is walked item by item. With create, missing mappings on the path
// are created, never a sequence (a key marked "[]", as kustomize marks
// it): an absent list stays absent.

type fieldSpec struct {
	group, version, kind string
	path                 []string
	create               bool
}

func (f fieldSpec) applies(group, version, kind string) bool {
	return (f.kind == "" || f.kind == kind) && (f.group == "" || f.group == group) && (f.version == "" || f.version == version)
}

func p(s ...string) []string { return s }

// metadataLabels: `labels` (kustomize's `labels` without selectors).
var metadataLabels = []fieldSpec{{path: p("metadata", "labels"), create: true}}

// templateLabels are the labels of pod templates and of the job template
// of a CronJob.
var templateLabels = []fieldSpec{
	{path: p("spec", "template", "metadata", "labels"), create: true, version: "v1", kind: "ReplicationController"},
	{path: p("spec", "template", "metadata", "labels"), create: true, kind: "Deployment"},
	{path: p("spec", "template", "metadata", "labels"), create: true, kind: "ReplicaSet"},
	{path: p("spec", "template", "metadata", "labels"), create: true, kind: "DaemonSet"},
	{path: p("spec", "template", "metadata", "labels"), create: true, group: "apps", kind: "StatefulSet"},
	{path: p("spec", "template", "metadata", "labels"), create: true, group: "batch", kind: "Job"},
	{path: p("spec", "jobTemplate", "metadata", "labels"), create: true, group: "batch", kind: "CronJob"},
	{path: p("spec", "jobTemplate", "spec", "template", "metadata", "labels"), create: true, group: "batch", kind: "CronJob"},
}

// affinityTerms are the label selectors of a pod template's affinity and
// topology spread constraints.
func affinityTerms(group, kind string) []fieldSpec {
	pre := p("spec", "template", "spec")
	paths := [][]string{
		p("affinity", "podAffinity", "preferredDuringSchedulingIgnoredDuringExecution", "podAffinityTerm", "labelSelector", "matchLabels"),
		p("affinity", "podAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "labelSelector", "matchLabels"),
		p("affinity", "podAntiAffinity", "preferredDuringSchedulingIgnoredDuringExecution", "podAffinityTerm", "labelSelector", "matchLabels"),
		p("affinity", "podAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "labelSelector", "matchLabels"),
		p("topologySpreadConstraints", "labelSelector", "matchLabels"),
	}
	out := make([]fieldSpec, len(paths))
	for i, q := range paths {
		out[i] = fieldSpec{group: group, kind: kind, path: append(append([]string{}, pre...), q...)}
	}
	return out
}

// selectorLabels: kustomize's commonLabels, metadata, pod templates,
// selectors and volume claim templates.
var selectorLabels = func() []fieldSpec {
	out := []fieldSpec{
		// not created: a Service without a selector has its endpoints given
		// by hand, and one made of the labels alone would select every pod
		// that has them (kustomize creates it)
		{path: p("spec", "selector"), version: "v1", kind: "Service"},
		// not created either: a ReplicationController without a selector
		// is given its pod template's labels by the API server, the new
		// ones among them; one made of the labels alone would take every
		// pod that has them, other controllers' too (kustomize creates it)
		{path: p("spec", "selector"), version: "v1", kind: "ReplicationController"},
		{path: p("spec", "selector", "matchLabels"), create: true, kind: "Deployment"},
	}
	out = append(out, affinityTerms("apps", "Deployment")...)
	out = append(out,
		fieldSpec{path: p("spec", "selector", "matchLabels"), create: true, kind: "ReplicaSet"},
		fieldSpec{path: p("spec", "selector", "matchLabels"), create: true, kind: "DaemonSet"},
		fieldSpec{path: p("spec", "selector", "matchLabels"), create: true, group: "apps", kind: "StatefulSet"},
	)
	out = append(out, affinityTerms("apps", "StatefulSet")...)
	out = append(out,
		fieldSpec{path: p("spec", "selector", "matchLabels"), group: "batch", kind: "Job"},
		fieldSpec{path: p("spec", "jobTemplate", "spec", "selector", "matchLabels"), group: "batch", kind: "CronJob"},
		fieldSpec{path: p("spec", "selector", "matchLabels"), group: "policy", kind: "PodDisruptionBudget"},
		fieldSpec{path: p("spec", "podSelector", "matchLabels"), group: "networking.k8s.io", kind: "NetworkPolicy"},
		fieldSpec{path: p("spec", "ingress", "from", "podSelector", "matchLabels"), group: "networking.k8s.io", kind: "NetworkPolicy"},
		fieldSpec{path: p("spec", "egress", "to", "podSelector", "matchLabels"), group: "networking.k8s.io", kind: "NetworkPolicy"},
	)
	out = append(out, metadataLabels...)
	out = append(out, templateLabels...)
	return append(out, fieldSpec{path: p("spec", "volumeClaimTemplates[]", "metadata", "labels"), create: true, group: "apps", kind: "StatefulSet"})
}()

// annotations: kustomize's commonAnnotations, metadata and pod templates.
var annotations = []fieldSpec{
	{path: p("metadata", "annotations"), create: true},
	{path: p("spec", "template", "metadata", "annotations"), create: true, version: "v1", kind: "ReplicationController"},
	{path: p("spec", "template", "metadata", "annotations"), create: true, kind: "Deployment"},
	{path: p("spec", "template", "metadata", "annotations"), create: true, kind: "ReplicaSet"},
	{path: p("spec", "template", "metadata", "annotations"), create: true, kind: "DaemonSet"},
	{path: p("spec", "template", "metadata", "annotations"), create: true, kind: "StatefulSet"},
	{path: p("spec", "template", "metadata", "annotations"), create: true, group: "batch", kind: "Job"},
	{path: p("spec", "jobTemplate", "metadata", "annotations"), create: true, group: "batch", kind: "CronJob"},
	{path: p("spec", "jobTemplate", "spec", "template", "metadata", "annotations"), create: true, group: "batch", kind: "CronJob"},
}

// imageVolumes are the image references of image volumes; container
// images are found wherever a containers, initContainers or
// ephemeralContainers sequence stands (containerFields).
var imageVolumes = []fieldSpec{
	{path: p("spec", "volumes", "image", "reference")},
	{path: p("spec", "template", "spec", "volumes", "image", "reference")},
	{path: p("spec", "jobTemplate", "spec", "template", "spec", "volumes", "image", "reference")},
}

var containerFields = map[string]bool{"containers": true, "initContainers": true, "ephemeralContainers": true}
