package validate

import (
	"os"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/testcrds"
)

// BenchmarkLoad_releasedCRDs is what validate's schemas argument costs the
// provider when it holds the released CRDs of internal/testcrds (as
// engine values, render_file's result): Load, then the first check of one
// Gateway (first_check), which builds only the Gateway's validators.
func BenchmarkLoad_releasedCRDs(b *testing.B) {
	files, err := testcrds.CRDFiles()
	if err != nil {
		b.Fatal(err)
	}
	var docs []value.Value
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, fromYAML(&testing.T{}, string(text))...)
	}
	gateway := fromYAML(&testing.T{}, "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: web, namespace: prod}\nspec: {gatewayClassName: example, listeners: [{name: http, protocol: HTTP, port: 80}]}")[0]
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			if _, err := Load(docs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("first_check", func(b *testing.B) {
		for b.Loop() {
			s, err := Load(docs)
			if err != nil {
				b.Fatal(err)
			}
			if r, err := s.Check(gateway); err != nil || len(r.Violations) > 0 {
				b.Fatal(err, r.Violations)
			}
		}
	})
}
