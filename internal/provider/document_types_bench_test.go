package provider

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// BenchmarkServer_kindTyping measures what typing unknowns from the kinds'
// schemas (document_types.go) adds to a render at plan: N Deployments with
// unknown leaves, rendered (render) and rendered then typed
// (render_and_type), so the cost reads as the ratio of the two.
func BenchmarkServer_kindTyping(b *testing.B) {
	text, err := os.ReadFile("testdata/bench/typed_kinds.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{20, 200} {
		svcs := make([]value.Value, n)
		for i := range svcs {
			m := value.NewMap(3)
			m.Set("name", "svc"+strconv.Itoa(i))
			m.Set("replicas", value.Unknown{})
			m.Set("port", value.Unknown{})
			svcs[i] = m
		}
		vars := map[string]value.Value{
			"services": svcs,
			"image":    value.Unknown{},
			"args":     value.UnknownOf(value.ListOf(value.TypeString)),
		}
		e := engine.New(engine.Options{})
		src := engine.Source{Text: text}
		for _, typed := range []bool{false, true} {
			name := "N=" + strconv.Itoa(n) + "/render"
			if typed {
				name += "_and_type"
			}
			b.Run(name, func(b *testing.B) {
				render := func() {
					docs, err := e.Render(context.Background(), src, vars)
					if err != nil {
						b.Fatal(err)
					}
					if typed {
						if _, err := typeDocuments(docs); err != nil {
							b.Fatal(err)
						}
					}
				}
				render() // the built-in kinds are read once per process
				b.ReportAllocs()
				for b.Loop() {
					render()
				}
			})
		}
	}
}
