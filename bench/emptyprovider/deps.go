//go:build celyamldeps

package main

// Linking the engine links cel-go, the Kubernetes CEL libraries,
// jsonschema and yaml: their package initialisation runs at launch, as in
// the real provider, while this provider still does nothing.
import _ "github.com/celyaml/terraform-provider-celyaml/internal/engine"

func init() {
	address = "registry.terraform.io/bench/benchdeps"
}
