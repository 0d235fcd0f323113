package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSameMinorRefusesAnotherKubernetesMinor(t *testing.T) {
	if err := sameMinor("37", "v1.37.2"); err != nil {
		t.Errorf("v1.37.2 for k8s.io/api v0.37: %v", err)
	}
	err := sameMinor("37", "v1.36.4")
	want := "tools/kube-apiserver/go.mod pins k8s.io/kubernetes v1.36.4 (Kubernetes 1.36), but go.mod's k8s.io/api is for Kubernetes 1.37: " +
		"pin k8s.io/kubernetes v1.37.x in tools/kube-apiserver/go.mod (go -C tools/kube-apiserver get k8s.io/kubernetes@v1.37.N), so that the built-in schemas are those of the provider's Kubernetes libraries"
	if err == nil || err.Error() != want {
		t.Errorf("v1.36.4 for k8s.io/api v0.37: got %v, want %s", err, want)
	}
	if err := sameMinor("37", "v1.37.0-rc.1"); err == nil || !strings.Contains(err.Error(), "not a release v1.MINOR.PATCH") {
		t.Errorf("a pre-release: got %v", err)
	}
}

func TestK8sAPIMinorReadsGoMod(t *testing.T) {
	dir := t.TempDir()
	gomod := filepath.Join(dir, "go.mod")
	if err := os.WriteFile(gomod, []byte("module x\n\nrequire (\n\tk8s.io/apimachinery v0.36.1\n\tk8s.io/api v0.37.2 // indirect\n)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := k8sAPIMinor(gomod); err != nil || got != "37" {
		t.Errorf("got %q, %v; want 37", got, err)
	}
	if err := os.WriteFile(gomod, []byte("module x\n\nrequire k8s.io/apimachinery v0.36.1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := k8sAPIMinor(gomod); err == nil || err.Error() != gomod+" requires no k8s.io/api v0.MINOR.PATCH" {
		t.Errorf("without k8s.io/api: got %v", err)
	}
}

func TestDocFileTakesGroupVersionDocumentsOnly(t *testing.T) {
	for name, want := range map[string]bool{
		"api__v1_openapi.json":                                     true,
		"apis__apps__v1_openapi.json":                              true,
		"apis__admissionregistration.k8s.io__v1beta1_openapi.json": true,
		"api_openapi.json":                                         false,
		"apis_openapi.json":                                        false,
		"apis__apps_openapi.json":                                  false,
		"openid__v1__jwks_openapi.json":                            false,
		"version_openapi.json":                                     false,
	} {
		if got := docFile.MatchString(name); got != want {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
	}
}

// generated is the shape of k8s.io/kubernetes' pkg/generated/openapi.
const generated = `package openapi

import (
	corev1 "k8s.io/api/core/v1"
	common "k8s.io/kube-openapi/pkg/common"
	spec "k8s.io/kube-openapi/pkg/validation/spec"
)

func GetOpenAPIDefinitions(ref common.ReferenceCallback) map[string]common.OpenAPIDefinition {
	return map[string]common.OpenAPIDefinition{
		corev1.Container{}.OpenAPIModelName(): schema_k8sio_api_core_v1_Container(ref),
	}
}

func schema_k8sio_api_core_v1_Container(ref common.ReferenceCallback) common.OpenAPIDefinition {
	return common.OpenAPIDefinition{
		Schema: spec.Schema{
			SchemaProps: spec.SchemaProps{
				Type: []string{"object"},
				Properties: map[string]spec.Schema{
					"imagePullPolicy": {
						SchemaProps: spec.SchemaProps{
							Type: []string{"string"},
							Enum: []interface{}{"Always", "IfNotPresent", "Never"},
						},
					},
					"operations": {
						SchemaProps: spec.SchemaProps{
							Type: []string{"array"},
							Items: &spec.SchemaOrArray{
								Schema: &spec.Schema{
									SchemaProps: spec.SchemaProps{
										Type: []string{"string"},
										Enum: []interface{}{"CREATE", "DELETE"},
									},
								},
							},
						},
					},
					"name": {
						SchemaProps: spec.SchemaProps{Type: []string{"string"}},
					},
				},
			},
		},
	}
}
`

func TestEnumsOfReadsTheGoDefinitionsEnums(t *testing.T) {
	file := filepath.Join(t.TempDir(), "zz_generated.openapi.go")
	if err := os.WriteFile(file, []byte(generated), 0o600); err != nil {
		t.Fatal(err)
	}
	enums, err := enumsOf(file)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]enumAt{"io.k8s.api.core.v1.Container": {
		{path: []string{"properties", "imagePullPolicy"}, values: []any{"Always", "IfNotPresent", "Never"}},
		{path: []string{"properties", "operations", "items"}, values: []any{"CREATE", "DELETE"}},
	}}
	if !reflect.DeepEqual(enums, want) {
		t.Fatalf("got %+v, want %+v", enums, want)
	}
	components := map[string]any{"io.k8s.api.core.v1.Container": map[string]any{
		"type": "object",
		"properties": map[string]any{
			"imagePullPolicy": map[string]any{"type": "string"},
			"operations":      map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"name":            map[string]any{"type": "string"},
		},
	}}
	if err := addEnums("v1", components, enums); err != nil {
		t.Fatal(err)
	}
	props := components["io.k8s.api.core.v1.Container"].(map[string]any)["properties"].(map[string]any)
	if got := props["imagePullPolicy"].(map[string]any)["enum"]; !reflect.DeepEqual(got, []any{"Always", "IfNotPresent", "Never"}) {
		t.Errorf("imagePullPolicy enum: %v", got)
	}
	if got := props["operations"].(map[string]any)["items"].(map[string]any)["enum"]; !reflect.DeepEqual(got, []any{"CREATE", "DELETE"}) {
		t.Errorf("operations items enum: %v", got)
	}
	if _, ok := props["name"].(map[string]any)["enum"]; ok {
		t.Error("name got an enum")
	}
	// A document whose schema lacks a property the Go definitions give an
	// enum: the two sources disagree, and the generator stops.
	lacking := map[string]any{"io.k8s.api.core.v1.Container": map[string]any{"type": "object", "properties": map[string]any{}}}
	err = addEnums("v1", lacking, enums)
	if want := "v1: components.schemas[io.k8s.api.core.v1.Container]: no schema at properties.imagePullPolicy for the enum the Go definitions give"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
