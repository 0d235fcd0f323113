package validate

import (
	"bytes"
	"errors"
	"io"
	"os"
	"sort"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// fromYAML reads a YAML stream into engine values.
func fromYAML(t *testing.T, src string) []value.Value {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewBufferString(src))
	var out []value.Value
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("yaml: %v", err)
		}
		out = append(out, toValue(v))
	}
}

func toValue(v any) value.Value {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		m := value.NewMap(len(keys))
		for _, k := range keys {
			m.Set(k, toValue(t[k]))
		}
		return m
	case []any:
		l := make([]value.Value, len(t))
		for i, e := range t {
			l[i] = toValue(e)
		}
		return l
	case int:
		return int64(t)
	default:
		return t
	}
}

// widgetSchemas loads testdata/widgets.yaml.
func widgetSchemas(t *testing.T) *Schemas {
	t.Helper()
	src, err := os.ReadFile("testdata/widgets.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Load(fromYAML(t, string(src)))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return s
}

// violations checks one document as a create and returns its violations
// as lines.
func violations(t *testing.T, s *Schemas, doc string) []string {
	t.Helper()
	docs := fromYAML(t, doc)
	r, err := s.CheckWith(docs[0], Options{Request: Create})
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	lines := []string{}
	for _, v := range r.Violations {
		lines = append(lines, v.String())
	}
	return lines
}
