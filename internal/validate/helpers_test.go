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

// violations checks one document and returns its violations as lines.
func violations(t *testing.T, s *Schemas, doc string) []string {
	t.Helper()
	docs := fromYAML(t, doc)
	r, err := createHidden(s).Check(docs[0])
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	lines := []string{}
	for _, v := range r.Violations {
		lines = append(lines, v.String())
	}
	return lines
}

// oldRules checks as a create, with the keys and names no schema writes
// hidden (Options{Request: Create, HideNames: true}): the tests written
// before server-side apply and named keys became the default keep
// testing those options exactly.
type oldRules struct{ s *Schemas }

func createHidden(s *Schemas) oldRules { return oldRules{s} }

var createHiddenOptions = Options{Request: Create, HideNames: true}

func (o oldRules) Check(doc value.Value) (Result, error) {
	return o.s.CheckWith(doc, createHiddenOptions)
}

func (o oldRules) CheckAll(docs []value.Value) ([]string, error) {
	return o.s.CheckAllWith(docs, createHiddenOptions)
}
