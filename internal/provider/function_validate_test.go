package provider

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"go.yaml.in/yaml/v3"
)

// yamlArg reads YAML into a protocol value as Terraform would pass it.
func yamlArg(t *testing.T, src string) tftypes.Value {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(src), &v); err != nil {
		t.Fatal(err)
	}
	tv, err := fromEngine(yamlToEngine(v))
	if err != nil {
		t.Fatal(err)
	}
	return tv
}

func yamlToEngine(v any) value.Value {
	switch t := v.(type) {
	case map[string]any:
		m := value.NewMap(len(t))
		for k, e := range t {
			m.Set(k, yamlToEngine(e))
		}
		return m
	case []any:
		l := make([]value.Value, len(t))
		for i, e := range t {
			l[i] = yamlToEngine(e)
		}
		return l
	case int:
		return int64(t)
	}
	return v
}

func widgetCRD(t *testing.T) tftypes.Value {
	t.Helper()
	src, err := os.ReadFile("testdata/validate/widget-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return yamlArg(t, string(src))
}

func TestValidateFunction_returnsDocumentsUnchanged(t *testing.T) {
	docs := yamlArg(t, `[{apiVersion: example.com/v1, kind: Widget, metadata: {name: a}, spec: {image: nginx, replicas: 2, minReplicas: 1}},
                        {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {x: y}}]`)
	got, ferr := (&validateFunction{}).call(context.Background(), []tftypes.Value{docs, widgetCRD(t)})
	if ferr != nil {
		t.Fatalf("error: %s", ferr.Text)
	}
	if !got.Equal(docs) {
		t.Errorf("got %s, want the documents unchanged", got)
	}
}

func TestValidateFunction_listsEveryViolation(t *testing.T) {
	docs := yamlArg(t, `[{apiVersion: example.com/v1, kind: Widget, metadata: {name: a, namespace: prod}, spec: {image: secret-looking-image, replicas: 20, minReplicas: 1}},
                        {apiVersion: example.com/v1, kind: Widget, metadata: {name: b}, spec: {image: nginx, replicas: 2, minReplicas: 3}}]`)
	_, ferr := (&validateFunction{}).call(context.Background(), []tftypes.Value{docs, widgetCRD(t)})
	want := "the API server would refuse these documents (2 violations):\n" +
		"example.com/Widget/prod/a: spec.replicas: Invalid value: spec.replicas in body should be less than or equal to 10\n" +
		"example.com/Widget/_/b: spec: Invalid value: minReplicas must not exceed replicas"
	if ferr == nil || ferr.Text != want || *ferr.FunctionArgument != 0 {
		t.Fatalf("got %v, want\n%s", ferr, want)
	}
}

func TestValidateFunction_versionMismatch(t *testing.T) {
	docs := yamlArg(t, `{apiVersion: example.com/v1beta1, kind: Widget, metadata: {name: a}, spec: {}}`)
	_, ferr := (&validateFunction{}).call(context.Background(), []tftypes.Value{docs, widgetCRD(t)})
	want := "the API server would refuse these documents (1 violation):\n" +
		"example.com/Widget/_/a: no schema for kind Widget in example.com/v1beta1: the schemas cover group example.com with example.com/v1 Widget"
	if ferr == nil || ferr.Text != want {
		t.Fatalf("got %v, want\n%s", ferr, want)
	}
}

func TestValidateFunction_unknownSchemasOrDocumentsWait(t *testing.T) {
	docs := yamlArg(t, `{apiVersion: example.com/v1, kind: Widget, metadata: {name: a}, spec: {replicas: 99}}`)
	unknown := tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue)
	for _, args := range [][]tftypes.Value{{docs, unknown}, {unknown, widgetCRD(t)}} {
		got, ferr := (&validateFunction{}).call(context.Background(), args)
		if ferr != nil || !got.Equal(args[0]) {
			t.Errorf("got %v, %v; want the documents back unchecked", got, ferr)
		}
	}
}

func TestValidateFunction_badSchemas(t *testing.T) {
	docs := yamlArg(t, `{apiVersion: example.com/v1, kind: Widget, metadata: {name: a}}`)
	_, ferr := (&validateFunction{}).call(context.Background(), []tftypes.Value{docs, yamlArg(t, `{apiVersion: v1, kind: ConfigMap}`)})
	want := `schemas: no CustomResourceDefinition (apiextensions.k8s.io/v1) or OpenAPI v3 document: the document is another Kubernetes object`
	if ferr == nil || ferr.Text != want || *ferr.FunctionArgument != 1 {
		t.Fatalf("got %v, want %s", ferr, want)
	}
}

// schemas may be a release bundle that mixes the CRDs with the rest of an
// install (argo-cd's install.yaml): the CRDs are taken, the other objects
// ignored, and the bundle's group is then covered, a kind typo in it an
// error.
func TestValidateFunction_takesTheCRDsOfABundle(t *testing.T) {
	crd, err := os.ReadFile("testdata/validate/widget-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bundle := yamlArg(t, "- {apiVersion: v1, kind: ServiceAccount, metadata: {name: widget-controller, namespace: widgets}}\n"+
		"- {apiVersion: apps/v1, kind: Deployment, metadata: {name: widget-controller, namespace: widgets}, spec: {selector: {matchLabels: {app: w}}, template: {metadata: {labels: {app: w}}, spec: {containers: [{name: c, image: widget-controller}]}}}}\n"+
		"- "+strings.ReplaceAll(strings.TrimSpace(string(crd)), "\n", "\n  ")+"\n")
	docs := yamlArg(t, `[{apiVersion: example.com/v1, kind: Widget, metadata: {name: web, namespace: prod}, spec: {image: nginx, replicas: 2, replcas: 3}},
                        {apiVersion: example.com/v1, kind: Widgte, metadata: {name: api, namespace: prod}, spec: {image: nginx, replicas: 2}}]`)
	_, ferr := (&validateFunction{}).call(context.Background(), []tftypes.Value{docs, bundle})
	want := "the API server would refuse these documents (2 violations):\n" +
		"example.com/Widget/prod/web: spec.replcas: Invalid value: field not declared in schema\n" +
		"example.com/Widgte/prod/api: kind Widgte is not defined by the CustomResourceDefinitions given for group example.com, which define Widget: did you mean Widget?; " +
		"they may define the group only in part: if it has such a kind, give its CustomResourceDefinition too"
	if ferr == nil || ferr.Text != want || *ferr.FunctionArgument != 0 {
		t.Fatalf("got %v, want\n%s", ferr, want)
	}
}

func TestValidateFunction_reusesTheSchemasOfTheSameArgument(t *testing.T) {
	first, err := loadSchemas(widgetCRD(t))
	if err != nil {
		t.Fatal(err)
	}
	again, err := loadSchemas(widgetCRD(t))
	if err != nil || again != first {
		t.Errorf("a second read of the same schemas built them again (%v)", err)
	}
}

// BenchmarkValidateFunction compares a call that builds the schemas with
// one that finds them in the cache, as Terraform's later calls do.
func BenchmarkValidateFunction(b *testing.B) {
	t := &testing.T{}
	docs := yamlArg(t, `[{apiVersion: example.com/v1, kind: Widget, metadata: {name: a}, spec: {image: nginx, replicas: 2, minReplicas: 1}}]`)
	crd := widgetCRD(t)
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			if _, err := buildSchemas(crd); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("call", func(b *testing.B) {
		for b.Loop() {
			if _, ferr := (&validateFunction{}).call(context.Background(), []tftypes.Value{docs, crd}); ferr != nil {
				b.Fatal(ferr.Text)
			}
		}
	})
}
