package validate

import (
	"strings"
	"testing"
)

const widgetHead = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}\n"

func TestCheckRules(t *testing.T) {
	s := widgetSchemas(t)
	cases := []struct {
		name string
		doc  string
		want []string
	}{
		{"valid widget", "spec: {maxDesired: 3, minReplicas: 1}", nil},
		{"root rule passing", "spec: {maxDesired: 3}\nstatus: {actual: 3}", nil},
		{"root rule failing", "spec: {maxDesired: 3}\nstatus: {actual: 4}",
			[]string{"example.com/Widget/ns/w: <root>: Invalid value: status.actual must not exceed spec.maxDesired"}},
		{"messageExpression", "spec: {maxDesired: 3, minReplicas: 5}",
			[]string{"example.com/Widget/ns/w: spec: Invalid value: minReplicas must be at most maxDesired"}},
		{"map of objects passing", "spec: {maxDesired: 1, components: {Widget: {priority: 9}}}", nil},
		{"map of objects failing", "spec: {maxDesired: 1, components: {Widget: {priority: 10}}}",
			[]string{"example.com/Widget/ns/w: spec: Invalid value: the Widget component's priority must be under 10"}},
		{"map rule failing", "spec: {maxDesired: 1, components: {a: {priority: -1}}}",
			[]string{"example.com/Widget/ns/w: spec.components: Invalid value: every component's priority must be non-negative"}},
		{"messageExpression other branch", "spec: {maxDesired: 0, minReplicas: 1}",
			[]string{"example.com/Widget/ns/w: spec: Invalid value: minReplicas must be 0 when maxDesired is 0"}},
		{"transition rule skipped at create", "spec: {maxDesired: 0}", nil},
		{"list of integers passing", "spec: {maxDesired: 1, values: [0, 99]}", nil},
		{"list of integers failing", "spec: {maxDesired: 1, values: [0, 100]}",
			[]string{"example.com/Widget/ns/w: spec.values: Invalid value: failed rule: self.all(value, value >= 0 && value < 100)"}},
		{"string scalar passing", "spec: {maxDesired: 1, prefix: kube-system}", nil},
		{"string scalar failing", "spec: {maxDesired: 1, prefix: default}",
			[]string{"example.com/Widget/ns/w: spec.prefix: Invalid value: failed rule: self.startsWith('kube')"}},
		{"escaped names passing", "spec: {maxDesired: 1, escaped: {namespace: 1, x-prop: 1, redact__d: 1}}", nil},
		{"escaped names failing", "spec: {maxDesired: 1, escaped: {namespace: 0, x-prop: 0, redact__d: 0}}", []string{
			"example.com/Widget/ns/w: spec.escaped: Invalid value: namespace must be positive",
			"example.com/Widget/ns/w: spec.escaped: Invalid value: redact__d must be positive",
			"example.com/Widget/ns/w: spec.escaped: Invalid value: x-prop must be positive",
		}},
		{"set equality ignores order", "spec: {maxDesired: 1, tags: [a, b], baseTags: [b, a], listChecks: {tagsEqualBase: true}}", nil},
		{"set inequality", "spec: {maxDesired: 1, tags: [a, c], baseTags: [b, a], listChecks: {tagsEqualBase: true}}",
			[]string{"example.com/Widget/ns/w: spec: Invalid value: tags and baseTags must be equal as sets exactly when tagsEqualBase"}},
		{"set concatenation is a union", "spec: {maxDesired: 1, tags: [a, c], baseTags: [b, a], listChecks: {unionSize: 3}}", nil},
		{"set concatenation is not an append", "spec: {maxDesired: 1, tags: [a, c], baseTags: [b, a], listChecks: {unionSize: 4}}",
			[]string{"example.com/Widget/ns/w: spec: Invalid value: the union of baseTags and tags has another size"}},
		{"map concatenation merges by key", "spec: {maxDesired: 1, ports: [{name: http, port: 80}, {name: https, port: 443}], listChecks: {mergedSize: 2}}", nil},
		{"map concatenation is not an append", "spec: {maxDesired: 1, ports: [{name: http, port: 80}, {name: https, port: 443}], listChecks: {mergedSize: 4}}",
			[]string{"example.com/Widget/ns/w: spec: Invalid value: ports concatenated with themselves have another size"}},
		{"duplicate set item", "spec: {maxDesired: 1, tags: [a, a]}",
			[]string{"example.com/Widget/ns/w: spec.tags[1]: Duplicate value"}},
		{"duplicate map key", "spec: {maxDesired: 1, ports: [{name: http, port: 1}, {name: http, port: 2}]}",
			[]string{"example.com/Widget/ns/w: spec.ports[1]: Duplicate value"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := violations(t, s, widgetHead+c.doc)
			want := c.want
			if want == nil {
				want = []string{}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
