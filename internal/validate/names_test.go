package validate

import (
	"strings"
	"testing"
)

// Built-in kinds' names follow the API server's rule for each kind.
func TestCheckBuiltinKindsNameRules(t *testing.T) {
	s, err := Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	const subdomain = "Invalid value: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	const label = "Invalid value: must not contain dots" // the DNS-label rule's words for a.b
	for _, c := range []struct{ doc, want string }{
		{"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: 'system:metrics-server'}", ""},
		{"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: 'system:metrics-server'}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: 'system:metrics-server'}", ""},
		{"apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: 'a/b', namespace: ns}",
			"rbac.authorization.k8s.io/Role/ns/a/b: metadata.name: Invalid value: may not contain '/'"},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: 'system:x', namespace: ns}",
			"_/ConfigMap/ns/system:x: metadata.name: " + subdomain},
		{"apiVersion: v1\nkind: Service\nmetadata: {name: a.b, namespace: ns}\nspec: {ports: [{port: 80}]}",
			"_/Service/ns/a.b: metadata.name: " + label},
		{"apiVersion: v1\nkind: Service\nmetadata: {name: 1web, namespace: ns}\nspec: {ports: [{port: 80}]}", ""},
		{"apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: a.b, namespace: ns}\nspec: {selector: {}, template: {spec: {containers: [{name: c, image: i}]}}}",
			"apps/StatefulSet/ns/a.b: metadata.name: " + label},
		{"apiVersion: v1\nkind: Namespace\nmetadata: {name: a.b}",
			"_/Namespace/_/a.b: metadata.name: " + label},
		{"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: 'system:pdb', namespace: ns}", ""},
		{"apiVersion: v1\nkind: Event\nmetadata: {name: 'Web.17a', namespace: ns}\ninvolvedObject: {}", ""},
		{"apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: " + strings.Repeat("a", 53) + ", namespace: ns}\nspec: {schedule: '* * * * *', jobTemplate: {}}",
			"batch/CronJob/ns/" + strings.Repeat("a", 53) + ": metadata.name: Invalid value: must be no more than 52 characters"},
		{"apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata: {name: v1.metrics.k8s.io}\nspec: {group: metrics.k8s.io, version: v1beta1, groupPriorityMinimum: 100, versionPriority: 100}",
			"apiregistration.k8s.io/APIService/_/v1.metrics.k8s.io: metadata.name: Invalid value: must be `spec.version+\".\"+spec.group`: \"v1beta1.metrics.k8s.io\""},
		{"apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata: {name: 10.0.0.1}\nspec: {parentRef: {resource: services, name: s, namespace: ns}}", ""},
		{"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.org}\nspec: {group: example.com, scope: Namespaced, names: {plural: widgets, kind: Widget}, versions: []}",
			`apiextensions.k8s.io/CustomResourceDefinition/_/widgets.example.org: metadata.name: Invalid value: must be spec.names.plural+"."+spec.group`},
	} {
		got, err := s.CheckAll(fromYAML(t, c.doc))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, l := range got {
			if strings.Contains(l, ": metadata.name: ") {
				names = append(names, l)
			}
		}
		if strings.Join(names, "\n") != c.want {
			t.Errorf("%s\n got: %s\nwant: %s", c.doc, strings.Join(names, "\n"), c.want)
		}
	}
}
