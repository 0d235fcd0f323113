package kubetypes

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

func typ(t string) structuralschema.Structural {
	return structuralschema.Structural{Generic: structuralschema.Generic{Type: t}}
}

func obj(props map[string]structuralschema.Structural) structuralschema.Structural {
	s := typ("object")
	s.Properties = props
	return s
}

func list(items structuralschema.Structural) structuralschema.Structural {
	s := typ("array")
	s.Items = &items
	return s
}

func mapOf(elem structuralschema.Structural) structuralschema.Structural {
	s := typ("object")
	s.AdditionalProperties = &structuralschema.StructuralOrBool{Structural: &elem}
	return s
}

func intOrString() structuralschema.Structural {
	return structuralschema.Structural{Extensions: structuralschema.Extensions{XIntOrString: true}}
}

// A kind's schema shaped like a Deployment's, with a CRD's bare metadata.
var widget = obj(map[string]structuralschema.Structural{
	"apiVersion": typ("string"),
	"kind":       typ("string"),
	"metadata":   typ("object"),
	"spec": obj(map[string]structuralschema.Structural{
		"replicas": typ("integer"),
		"paused":   typ("boolean"),
		"port":     intOrString(),
		"target":   intOrString(),
		"args":     list(typ("string")),
		"labels":   mapOf(typ("string")),
		"raw":      {Extensions: structuralschema.Extensions{XPreserveUnknownFields: true}},
		"containers": list(obj(map[string]structuralschema.Structural{
			"name":  typ("string"),
			"image": typ("string"),
			"args":  list(typ("string")),
		})),
		"ports":  list(obj(map[string]structuralschema.Structural{"port": intOrString()})),
		"byName": mapOf(obj(map[string]structuralschema.Structural{"image": typ("string")})),
		"extras": list(obj(map[string]structuralschema.Structural{"data": {Extensions: structuralschema.Extensions{XPreserveUnknownFields: true}}, "tags": list(typ("string"))})),
	}),
	"status": obj(map[string]structuralschema.Structural{"ready": typ("boolean")}),
})

var meta = obj(map[string]structuralschema.Structural{
	"name":   typ("string"),
	"labels": mapOf(typ("string")),
})

func lookup(apiVersion, kind string) (*structuralschema.Structural, error) {
	switch {
	case apiVersion == "example.com/v1" && kind == "Widget":
		return &widget, nil
	case apiVersion == "v1" && kind == "ConfigMap":
		cm := obj(map[string]structuralschema.Structural{"metadata": meta})
		return &cm, nil
	}
	return nil, nil
}

// m builds a map from key, value pairs, in order.
func m(kv ...value.Value) *value.Map {
	out := value.NewMap(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		out.Set(kv[i].(string), kv[i+1])
	}
	return out
}

func widgetDoc(spec *value.Map) *value.Map {
	return m("apiVersion", "example.com/v1", "kind", "Widget", "metadata", m("name", "w"), "spec", spec)
}

// unknowns lists every unknown in v with its type, sorted.
func unknowns(v value.Value) string {
	var out []string
	var walk func(path string, v value.Value)
	walk = func(path string, v value.Value) {
		switch x := v.(type) {
		case value.Unknown:
			out = append(out, path+": "+x.Type.String())
		case *value.Map:
			for i := 0; i < x.Len(); i++ {
				k, e := x.At(i)
				walk(strings.TrimPrefix(path+"."+k, "."), e)
			}
		case []value.Value:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		}
	}
	walk("", v)
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// Each unknown gets the type kubernetes_manifest reads at its place: a
// primitive place its primitive type (an int-or-string given a number is
// dynamic, which kubernetes_manifest types as a string and which holds
// whatever replaces it at apply), a collection or object place dynamic
// once the unknown's own type fits it; a place the schema leaves dynamic,
// and status, keep what they hold; metadata is typed as ObjectMeta.
func TestDocuments_unknownsTakeTheTypeOfTheirPlace(t *testing.T) {
	dyn := value.Unknown{}
	doc := m("apiVersion", "example.com/v1", "kind", "Widget",
		"metadata", m("name", dyn, "labels", m("app", dyn)),
		"spec", m(
			"replicas", dyn,
			"paused", dyn,
			"port", value.Unknown{Type: value.TypeNumber},
			"target", dyn,
			"args", value.Unknown{Type: value.ListOf(value.TypeString)},
			"labels", value.Unknown{Type: value.MapOf(value.TypeString)},
			"raw", value.Unknown{Type: value.TypeNumber},
			"containers", []value.Value{m("name", "app", "image", dyn, "args", []value.Value{dyn, "x"}), m("name", "b", "image", "i")},
		),
		"status", m("ready", dyn))
	out, err := Documents([]value.Value{doc, "not a document"}, lookup)
	if err != nil {
		t.Fatal(err)
	}
	const want = `metadata.labels.app: string
metadata.name: string
spec.args: dynamic
spec.containers[0].args[0]: string
spec.containers[0].image: string
spec.labels: dynamic
spec.paused: bool
spec.port: dynamic
spec.raw: number
spec.replicas: number
spec.target: dynamic
status.ready: dynamic`
	if got := unknowns(out[0]); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := unknowns(doc); !strings.Contains(got, "spec.replicas: dynamic") {
		t.Errorf("the input document changed:\n%s", got)
	}
	if out[1] != "not a document" {
		t.Errorf("a document that is not a mapping changed: %v", out[1])
	}
}

// A type that disagrees with its place is an error naming the path and
// both types, never a value.
func TestDocuments_aTypeThatDisagreesIsAnErrorNamingBoth(t *testing.T) {
	for _, c := range []struct {
		name string
		spec *value.Map
		want string
	}{
		{"a string where a number is declared", m("replicas", value.Unknown{Type: value.TypeString}),
			"document 0 (example.com/v1 Widget): spec.replicas: an unknown string where the kind's schema declares number"},
		{"a bool in an int-or-string", m("port", value.Unknown{Type: value.TypeBool}),
			"document 0 (example.com/v1 Widget): spec.port: an unknown bool where the kind's schema declares an int-or-string or a quantity (a number or a string)"},
		{"a string where a list is declared", m("args", value.Unknown{Type: value.TypeString}),
			"document 0 (example.com/v1 Widget): spec.args: an unknown string where the kind's schema declares list(string)"},
		{"a list of numbers where strings are declared", m("args", value.Unknown{Type: value.ListOf(value.TypeNumber)}),
			"document 0 (example.com/v1 Widget): spec.args[*]: an unknown number where the kind's schema declares string"},
		{"a map where a list is declared", m("args", value.Unknown{Type: value.MapOf(value.TypeString)}),
			"document 0 (example.com/v1 Widget): spec.args: an unknown map(string) where the kind's schema declares list(string)"},
		{"an object whose attribute disagrees", m("containers", []value.Value{value.Unknown{Type: value.ObjectOf(map[string]value.Type{"image": value.TypeBool})}}),
			"document 0 (example.com/v1 Widget): spec.containers[0].image: an unknown bool where the kind's schema declares string"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Documents([]value.Value{widgetDoc(c.spec)}, lookup)
			if err == nil {
				t.Fatal("no error")
			}
			want := c.want + "; convert it in the template (string(...), int(...), ...) or give the input that type"
			if err.Error() != want {
				t.Errorf("got  %s\nwant %s", err, want)
			}
		})
	}
}

// Documents without unknowns, of kinds no schema covers, or whose kind is
// not known, are returned as they are: the same slice.
func TestDocuments_untouchedDocumentsAreReturnedAsTheyAre(t *testing.T) {
	docs := []value.Value{
		widgetDoc(m("replicas", int64(2))),
		m("apiVersion", "other/v1", "kind", "Thing", "spec", m("replicas", value.Unknown{Type: value.TypeString})),
		m("apiVersion", "example.com/v1", "kind", value.Unknown{}, "spec", m("replicas", value.Unknown{Type: value.TypeString})),
	}
	out, err := Documents(docs, lookup)
	if err != nil {
		t.Fatal(err)
	}
	if &out[0] != &docs[0] {
		t.Error("a new slice for documents that did not change")
	}
}

// Inside a strict list (one whose items' type holds nothing dynamic,
// which kubernetes_manifest types as a list: every element exactly its
// type) an unknown it cannot take there (a list, map or object, an
// int-or-string not known to be a string) makes the outermost strict
// list one dynamic unknown, which kubernetes_manifest takes outside a
// strict list and types itself; an unknown it can take stays where it
// is, and so does anything in a list whose items hold a dynamic part.
func TestDocuments_anUnknownAStrictListCannotHoldMakesTheListUnknown(t *testing.T) {
	dyn := value.Unknown{}
	container := func(kv ...value.Value) *value.Map { return m(append([]value.Value{"name", "app"}, kv...)...) }
	for _, c := range []struct {
		name string
		spec *value.Map
		want string
	}{
		{"an unknown list in a container", m("containers", []value.Value{container("args", value.Unknown{Type: value.ListOf(value.TypeString)})}), "spec.containers: dynamic"},
		{"a container unknown as a whole", m("containers", []value.Value{container(), dyn}), "spec.containers: dynamic"},
		{"a dynamic int-or-string in a list", m("ports", []value.Value{m("port", dyn)}), "spec.ports: dynamic"},
		{"a number int-or-string in a list", m("ports", []value.Value{m("port", value.Unknown{Type: value.TypeNumber})}), "spec.ports: dynamic"},
		{"a string int-or-string in a list stays", m("ports", []value.Value{m("port", value.Unknown{Type: value.TypeString})}), "spec.ports[0].port: string"},
		{"a leaf in a container stays", m("containers", []value.Value{container("image", dyn)}), "spec.containers[0].image: string"},
		{"an unknown object in a map of objects", m("byName", m("a", m("image", "i"), "b", value.Unknown{Type: value.ObjectOf(map[string]value.Type{"image": value.TypeString})})), "spec.byName: dynamic"},
		{"a leaf in a map of objects stays", m("byName", m("a", m("image", dyn))), "spec.byName.a.image: string"},
		{"a list whose items hold a dynamic part is not strict", m("extras", []value.Value{m("data", dyn, "tags", dyn)}), "spec.extras[0].data: dynamic\nspec.extras[0].tags: dynamic"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := Documents([]value.Value{widgetDoc(c.spec)}, lookup)
			if err != nil {
				t.Fatal(err)
			}
			if got := unknowns(out[0]); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
	// A type that disagrees is still an error inside a strict list.
	_, err := Documents([]value.Value{widgetDoc(m("containers", []value.Value{container("args", value.Unknown{Type: value.TypeBool})}))}, lookup)
	if want := "document 0 (example.com/v1 Widget): spec.containers[0].args: an unknown bool where the kind's schema declares list(string)"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v, want %s...", err, want)
	}
}
