package validate

import (
	"strings"
	"testing"
)

// autoscalerOpenAPI is an /openapi/v3/apis/autoscaling.example.com/v1
// document as the API server serves it for a CRD's group-version: its
// paths serve Autoscaler, and it lists every kind of that group-version.
const autoscalerOpenAPI = `openapi: 3.0.0
paths:
  /apis/autoscaling.example.com/v1/namespaces/{namespace}/autoscalers/{name}:
    put:
      x-kubernetes-group-version-kind: {group: autoscaling.example.com, version: v1, kind: Autoscaler}
components:
  schemas:
    com.example.autoscaling.v1.Autoscaler:
      type: object
      properties:
        apiVersion: {type: string}
        kind: {type: string}
        metadata: {type: object}
        spec:
          type: object
          properties:
            target: {type: string}
      x-kubernetes-group-version-kind:
      - {group: autoscaling.example.com, version: v1, kind: Autoscaler}
`

// A kind that a group-version served by an OpenAPI document does not list
// does not exist, whatever the group (here one a CRD defines on the
// cluster, saved from its /openapi/v3): the error names the group-version's
// kinds and the one meant, and the document's whole manifest ID.
func TestCheck_aKindTheServedGroupVersionDoesNotListIsRefused(t *testing.T) {
	s, err := Load(fromYAML(t, autoscalerOpenAPI))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ doc, want string }{
		{"apiVersion: autoscaling.example.com/v1\nkind: Autoscalar\nmetadata: {name: web, namespace: prod}\nspec: {target: api}",
			"autoscaling.example.com/Autoscalar/prod/web: kind Autoscalar does not exist in autoscaling.example.com/v1, whose kinds are Autoscaler: did you mean Autoscaler?"},
		{"apiVersion: autoscaling.example.com/v1\nkind: Scaler2000\nmetadata: {name: web, namespace: prod}",
			"autoscaling.example.com/Scaler2000/prod/web: kind Scaler2000 does not exist in autoscaling.example.com/v1, whose kinds are Autoscaler"},
	} {
		for _, o := range []Options{{}, {Request: Create}} {
			lines, err := s.CheckAllWith(fromYAML(t, c.doc), o)
			if err != nil || strings.Join(lines, "\n") != c.want {
				t.Errorf("%s, %s: got %v\n%s\nwant\n%s", c.doc, o.Request, err, strings.Join(lines, "\n"), c.want)
			}
		}
	}
	// The kind it lists is checked.
	lines, err := s.CheckAll(fromYAML(t, "apiVersion: autoscaling.example.com/v1\nkind: Autoscaler\nmetadata: {name: web, namespace: prod}\nspec: {target: api, targte: api}"))
	if want := "autoscaling.example.com/Autoscaler/prod/web: spec.targte: Invalid value: field not declared in schema"; err != nil || strings.Join(lines, "\n") != want {
		t.Errorf("got %v\n%s\nwant\n%s", err, strings.Join(lines, "\n"), want)
	}
}
