package validate

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func appsV1Schemas(t *testing.T) *Schemas {
	t.Helper()
	raw, err := os.ReadFile("testdata/openapi-apps-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Load(fromYAML(t, string(raw)))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return s
}

const deploymentHead = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: cart, namespace: prod}\n"

func TestCheckOpenAPIDeployment(t *testing.T) {
	s := appsV1Schemas(t)
	cases := []struct {
		name string
		spec string
		want []string
	}{
		{"valid", "spec: {replicas: 2, selector: {matchLabels: {app: cart}}, strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 25%}}, template: {metadata: {labels: {app: cart}}, spec: {containers: [{name: cart, image: nginx, ports: [{containerPort: 80}]}]}}}", nil},
		{"wrong type through $ref", "spec: {replicas: two, selector: {}, template: {spec: {containers: [{name: c}]}}}", []string{
			`apps/Deployment/prod/cart: spec.replicas: Invalid value: spec.replicas in body must be of type integer: "string"`,
		}},
		{"missing required", "spec: {selector: {}, template: {spec: {containers: [{image: nginx}]}}}", []string{
			"apps/Deployment/prod/cart: spec.template.spec.containers[0].name: Required value",
		}},
		{"enum", "spec: {selector: {}, template: {spec: {containers: [{name: c, imagePullPolicy: Sometimes}]}}}", []string{
			`apps/Deployment/prod/cart: spec.template.spec.containers[0].imagePullPolicy: Unsupported value: supported values: "Always", "IfNotPresent", "Never"`,
		}},
		{"list-type map keys", "spec: {selector: {}, template: {spec: {containers: [{name: c}, {name: c}]}}}", []string{
			"apps/Deployment/prod/cart: spec.template.spec.containers[1]: Duplicate value",
		}},
		{"unknown field", "spec: {selector: {}, template: {spec: {containers: [{name: c, imag: nginx}]}}}", []string{
			"apps/Deployment/prod/cart: spec.template.spec.containers[0].imag: Invalid value: field not declared in schema",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := violations(t, s, deploymentHead+c.spec)
			want := c.want
			if want == nil {
				want = []string{}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
	if _, err := s.CheckWith(fromYAML(t, "apiVersion: apps/v1beta2\nkind: Deployment\nmetadata: {name: cart}")[0], Options{Request: Create}); err == nil ||
		err.Error() != "apps/Deployment/_/cart: no schema for kind Deployment in apps/v1beta2: the schemas cover group apps with apps/v1 Deployment" {
		t.Errorf("version mismatch: got %v", err)
	}
}

func TestCheckOpenAPIRefusesMissingRefWhenItsKindIsChecked(t *testing.T) {
	doc := `{openapi: 3.0.0, components: {schemas: {D: {type: object, properties: {spec: {$ref: "#/components/schemas/Missing"}}, x-kubernetes-group-version-kind: [{group: apps, kind: D, version: v1}]}}}}`
	s, err := Load(fromYAML(t, doc))
	if err != nil {
		t.Fatalf("Load: %v (a kind's schema is read when a document of it is checked)", err)
	}
	_, err = s.CheckWith(fromYAML(t, "apiVersion: apps/v1\nkind: D\nmetadata: {name: d}")[0], Options{Request: Create})
	var se *SchemaError
	if want := "schemas: document 0: components.schemas[D]: $ref #/components/schemas/Missing: no such schema in components.schemas"; !errors.As(err, &se) || err.Error() != want {
		t.Errorf("got %v, want the schema error %s", err, want)
	}
}

func TestCheckSecretDataIsNeverPrinted(t *testing.T) {
	s, err := Load(fromYAML(t, `{openapi: 3.0.0, components: {schemas: {io.k8s.api.core.v1.Secret: {type: object,
  properties: {apiVersion: {type: string}, kind: {type: string}, metadata: {type: object}, type: {type: string},
    data: {type: object, additionalProperties: {type: string, format: byte}}},
  x-kubernetes-group-version-kind: [{group: "", kind: Secret, version: v1}]}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := violations(t, s, "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\ndata: {password: hunter2 not base64}")
	want := "_/Secret/_/db: data.password: Invalid value: data.password in body must be of type byte"
	if strings.Join(got, "\n") != want || strings.Contains(strings.Join(got, ""), "hunter2") {
		t.Errorf("got %q, want %q", got, want)
	}
}
