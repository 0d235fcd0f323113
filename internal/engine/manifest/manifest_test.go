package manifest

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// reader serves parts from a map keyed by dotted path and records what
// FromParts reads, in order.
type reader struct {
	parts map[string]Part
	read  []string
	err   map[string]error
}

func (r *reader) part(path ...string) (Part, error) {
	p := strings.Join(path, ".")
	r.read = append(r.read, p)
	return r.parts[p], r.err[p]
}

func known(s string) Part { return Part{Text: s, State: PartKnown} }

func TestFromParts_buildsTheID(t *testing.T) {
	for _, c := range []struct {
		name  string
		parts map[string]Part
		want  string
	}{
		{"namespaced, named group", map[string]Part{"kind": known("Deployment"), "metadata.name": known("web"), "metadata.namespace": known("prod"), "apiVersion": known("apps/v1")}, "apps/Deployment/prod/web"},
		{"core group, no namespace", map[string]Part{"kind": known("Namespace"), "metadata.name": known("prod"), "apiVersion": known("v1")}, "_/Namespace/_/prod"},
		{"no apiVersion", map[string]Part{"kind": known("ConfigMap"), "metadata.name": known("c")}, "_/ConfigMap/_/c"},
	} {
		r := &reader{parts: c.parts}
		id, skip, unknown, err := FromParts(r.part)
		if id != c.want || skip || unknown || err != nil {
			t.Errorf("%s: got %q, %v, %v, %v; want %q", c.name, id, skip, unknown, err, c.want)
		}
		if want := []string{"kind", "metadata.name", "metadata.namespace", "apiVersion"}; !slices.Equal(r.read, want) {
			t.Errorf("%s: read %q, want %q", c.name, r.read, want)
		}
	}
}

func TestFromParts_skipsBeforeReadingTheRest(t *testing.T) {
	r := &reader{parts: map[string]Part{"kind": known("ConfigMap"), "metadata.namespace": {State: PartUnknown}}}
	id, skip, unknown, err := FromParts(r.part)
	if id != "" || !skip || unknown || err != nil {
		t.Errorf("got %q, %v, %v, %v; want a skip", id, skip, unknown, err)
	}
	if want := []string{"kind", "metadata.name"}; !slices.Equal(r.read, want) {
		t.Errorf("read %q, want %q", r.read, want)
	}
}

func TestFromParts_unknownPartMakesTheIDUnknown(t *testing.T) {
	r := &reader{parts: map[string]Part{"kind": known("ConfigMap"), "metadata.name": known("c"), "apiVersion": {State: PartUnknown}}}
	if id, skip, unknown, err := FromParts(r.part); id != "" || skip || !unknown || err != nil {
		t.Errorf("got %q, %v, %v, %v; want unknown", id, skip, unknown, err)
	}
}

func TestFromParts_passesTheReadersError(t *testing.T) {
	bad := errors.New("metadata.name must be a string, got number")
	r := &reader{parts: map[string]Part{"kind": known("ConfigMap")}, err: map[string]error{"metadata.name": bad}}
	if _, _, _, err := FromParts(r.part); !errors.Is(err, bad) {
		t.Errorf("err = %v, want %v", err, bad)
	}
}

func TestID_readsEngineValues(t *testing.T) {
	meta := value.NewMap(2)
	meta.Set("name", "web")
	meta.Set("namespace", value.UnknownOf(value.TypeString))
	doc := value.NewMap(3)
	doc.Set("apiVersion", "apps/v1")
	doc.Set("kind", "Deployment")
	doc.Set("metadata", meta)
	if id, skip, unknown, err := ID(doc); id != "" || skip || !unknown || err != nil {
		t.Errorf("unknown namespace: got %q, %v, %v, %v", id, skip, unknown, err)
	}
	meta.Set("namespace", "prod")
	if id, _, _, err := ID(doc); id != "apps/Deployment/prod/web" || err != nil {
		t.Errorf("got %q, %v", id, err)
	}
	doc.Set("kind", int64(3))
	if _, _, _, err := ID(doc); err == nil || err.Error() != "kind must be a string, got a number" {
		t.Errorf("err = %v", err)
	}
}
