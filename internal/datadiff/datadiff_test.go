package datadiff

import (
	"reflect"
	"testing"
)

func TestObjects_namesEachPlaceOnceAndSorts(t *testing.T) {
	a := map[string]any{
		"v1/ConfigMap/x": map[string]any{"data": map[string]any{"k": "1", "gone": "a"}, "list": []any{1, 2}},
		"v1/Secret/s":    map[string]any{},
	}
	b := map[string]any{
		"v1/ConfigMap/x": map[string]any{"data": map[string]any{"k": "2", "new": true}, "list": []any{1, 3}},
		"v1/Service/y":   map[string]any{},
	}
	got := Objects("helm", "ours", a, b)
	want := []string{
		`v1/ConfigMap/x: data.gone: helm "a", ours absent`,
		`v1/ConfigMap/x: data.k: helm "1", ours "2"`,
		`v1/ConfigMap/x: data.new: helm absent, ours true`,
		`v1/ConfigMap/x: list[1]: helm 2, ours 3`,
		`v1/Secret/s: only in helm`,
		`v1/Service/y: only in ours`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestValues_listsOfOtherLengthsDifferAsAWhole(t *testing.T) {
	got := Values(nil, "", "kustomize", "celyaml", []any{1}, []any{1, 2})
	want := []string{": kustomize [1], celyaml [1,2]"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestID_groupKindNamespaceNameWithBlanksAsUnderscores(t *testing.T) {
	for _, c := range []struct {
		doc  map[string]any
		want string
	}{
		{map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": "prod"}}, "apps/Deployment/prod/web"},
		{map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "prod"}}, "_/Namespace/_/prod"},
		{map[string]any{}, "_/_/_/_"},
	} {
		if got := ID(c.doc); got != c.want {
			t.Errorf("ID(%v) = %q, want %q", c.doc, got, c.want)
		}
	}
}
