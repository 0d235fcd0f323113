package kubetypes

import (
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// fuzzValue builds a value from bytes: a small tree of maps whose keys
// are the Widget's field names (so the walk goes deep), lists, known
// scalars and unknowns of every kind of type.
func fuzzValue(b []byte, depth int) (value.Value, []byte) {
	if len(b) == 0 || depth > 8 {
		return nil, b
	}
	keys := []string{"spec", "metadata", "status", "replicas", "paused", "port", "target", "args", "labels", "raw", "containers", "name", "image", "x"}
	types := []value.Type{value.TypeDynamic, value.TypeString, value.TypeNumber, value.TypeBool,
		value.ListOf(value.TypeString), value.MapOf(value.TypeNumber), value.TupleOf(value.TypeBool),
		value.ObjectOf(map[string]value.Type{"image": value.TypeNumber, "args": value.SetOf(value.TypeString)})}
	c, b := b[0], b[1:]
	switch c % 6 {
	case 0:
		n := int(c/6) % 4
		m := value.NewMap(n)
		for range n {
			if len(b) == 0 {
				break
			}
			k := keys[int(b[0])%len(keys)]
			var v value.Value
			v, b = fuzzValue(b[1:], depth+1)
			m.Set(k, v)
		}
		return m, b
	case 1:
		n := int(c/6) % 3
		l := make([]value.Value, 0, n)
		for range n {
			var v value.Value
			v, b = fuzzValue(b, depth+1)
			l = append(l, v)
		}
		return l, b
	case 2:
		return value.UnknownOf(types[int(c/6)%len(types)]), b
	case 3:
		return int64(c), b
	case 4:
		return "s", b
	}
	return c%2 == 0, b
}

// Typing any document never panics; what it gives, typed again, is what
// it is (the types it gives are the types of their places); an error
// names a path and two types, never a value (the strings here are "s").
func FuzzDocuments(f *testing.F) {
	f.Add([]byte{0, 11, 0, 0, 2})
	f.Add([]byte{6, 11, 6, 9, 14, 0, 2})
	f.Add([]byte{12, 11, 12, 10, 7, 0, 12, 12, 2, 13, 26})
	f.Fuzz(func(t *testing.T, b []byte) {
		spec, _ := fuzzValue(b, 0)
		doc := widgetDoc(value.NewMap(0))
		doc.Set("spec", spec)
		out, err := Documents([]value.Value{doc}, lookup)
		if err != nil {
			if !strings.Contains(err.Error(), "an unknown ") || strings.Contains(err.Error(), `"s"`) {
				t.Fatalf("error %q", err)
			}
			return
		}
		again, err := Documents(out, lookup)
		if err != nil {
			t.Fatalf("typing a typed document: %v", err)
		}
		if a, b := unknowns(again[0]), unknowns(out[0]); a != b {
			t.Fatalf("typing again changed the types:\n%s\nwas\n%s", a, b)
		}
	})
}
