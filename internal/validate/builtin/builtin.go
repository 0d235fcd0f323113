// Package builtin embeds the bundle of the built-in Kubernetes kinds'
// OpenAPI schemas that `make builtin-schemas` generates into data/ from the
// k8s.io/kubernetes module (gen/, the validating guide's "Built-in kinds").
// The bundle is committed, so that a plain `go install` carries it; a build
// from a checkout without it has none, and Bundle then reports so.
package builtin

import (
	"embed"
	"io/fs"
	"path"
	"strings"
)

// data holds README.md and the bundle `make builtin-schemas` generated.
//
//go:embed data
var data embed.FS

// Dir is the folder, relative to this package, the bundle is generated into.
const Dir = "data"

// FileName is the bundle's name for a Kubernetes minor ("1.37").
func FileName(minor string) string { return "kubernetes-" + minor + ".json.gz" }

// Bundle returns the embedded bundle's file name and its gzip-compressed
// bytes, or "" and nil when this build carries none.
func Bundle() (string, []byte) {
	entries, err := fs.ReadDir(data, Dir)
	if err != nil {
		return "", nil
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "kubernetes-") && strings.HasSuffix(e.Name(), ".json.gz") {
			b, err := data.ReadFile(path.Join(Dir, e.Name()))
			if err != nil {
				return "", nil
			}
			return e.Name(), b
		}
	}
	return "", nil
}

// Minor gives the Kubernetes minor ("1.37") of the embedded bundle, read
// from its file name, or "" when this build carries none. It decompresses
// nothing: `$chart` takes its default .Capabilities.KubeVersion from it.
func Minor() string {
	name, _ := Bundle()
	name = strings.TrimPrefix(name, "kubernetes-")
	return strings.TrimSuffix(name, ".json.gz")
}
