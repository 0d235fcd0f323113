package validate

import (
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

func TestRelatedPaths(t *testing.T) {
	cases := []struct {
		path, unknown string
		want          bool
	}{
		{"spec.image", "spec.image", true},
		{"spec", "spec.image", true},         // a rule on spec may read spec.image
		{"", "spec.image", true},             // so may one on the document
		{"spec.image.x", "spec.image", true}, // under the unknown value
		{"spec.imagePullPolicy", "spec.image", false},
		{"spec.containers[1]", "spec.containers[10].image", false},
		{"spec.containers[1]", "spec.containers[1].image", true},
		{"spec.replicas", "spec.image", false},
	}
	for _, c := range cases {
		if got := related(c.path, c.unknown); got != c.want {
			t.Errorf("related(%q, %q) = %v, want %v", c.path, c.unknown, got, c.want)
		}
	}
}

func TestPlainRecordsUnknownPaths(t *testing.T) {
	m := value.NewMap(2)
	m.Set("image", value.Unknown{})
	m.Set("ports", []value.Value{int64(80), value.Unknown{}})
	root := value.NewMap(1)
	root.Set("spec", m)
	p, unknown := plain(root)
	if got := strings.Join(unknown, " "); got != "spec.image spec.ports[1]" {
		t.Errorf("unknown paths %q", got)
	}
	spec := p.(map[string]any)["spec"].(map[string]any)
	if _, has := spec["image"]; has || len(spec["ports"].([]any)) != 2 {
		t.Errorf("plain value %v: the unknown key must be left out and the list keep its length", spec)
	}
}
