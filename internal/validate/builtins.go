package validate

import (
	"fmt"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/celyaml/terraform-provider-celyaml/internal/validate/builtin"
)

// The built-in kinds' schemas (the validating guide, "Where schemas come
// from"): the API server's own /openapi/v3 documents of the Kubernetes
// minor of the provider's Kubernetes libraries, embedded by package
// builtin, the lowest-priority source: a kind a given document defines, in
// the same group, version and kind, replaces the built-in one. They are
// read once per process and only when a document of a kind no given
// schema covers is checked; a kind's validators are built the first time a
// document of it is checked, and shared by every Schemas of the process.

// builtinSet is the built-in kinds of one bundle.
type builtinSet struct {
	name string // the bundle's file name, "" when the build carries none
	gz   []byte

	once    sync.Once
	version string // the Kubernetes version, "v1.37.2"
	kinds   map[schema.GroupKind]map[string]*kindEntry
	gvs     map[schema.GroupVersion]bool
	err     error
}

// builtins is this build's bundle.
var builtins = sync.OnceValue(func() *builtinSet {
	name, gz := builtin.Bundle()
	return &builtinSet{name: name, gz: gz}
})

// noBuiltins stands for a build without the bundle.
func noBuiltins() *builtinSet { return &builtinSet{} }

// present reports whether the build carries the built-in schemas.
func (b *builtinSet) present() bool { return b != nil && b.name != "" }

// index reads the bundle's kinds, once.
func (b *builtinSet) index() error {
	if !b.present() {
		return nil
	}
	b.once.Do(func() {
		b.err = b.read()
		if b.err != nil {
			b.err = &SchemaError{fmt.Sprintf("the built-in schemas (%s) cannot be read: %s; rebuild with `make builtin-schemas`", b.name, b.err)}
			b.kinds = nil
		}
		b.gz = nil // read: only the index and the raw schemas are kept
	})
	return b.err
}

func (b *builtinSet) read() error {
	f, err := decodeBundle(b.gz)
	if err != nil {
		return err
	}
	b.version = f.Kubernetes
	b.kinds = map[schema.GroupKind]map[string]*kindEntry{}
	b.gvs = map[schema.GroupVersion]bool{}
	for i := range f.GroupVersions {
		g := &f.GroupVersions[i]
		gv, err := schema.ParseGroupVersion(g.GroupVersion)
		if err != nil {
			return err
		}
		b.gvs[gv] = true
		resolve := b.resolver(f, g)
		for _, k := range g.Kinds {
			ok := openAPIKind{
				gvk:       gv.WithKind(k.Kind),
				schema:    k.Schema,
				pathFacts: pathFacts{namespaced: k.Namespaced, status: k.Status},
			}
			gk := ok.gvk.GroupKind()
			if b.kinds[gk] == nil {
				b.kinds[gk] = map[string]*kindEntry{}
			}
			b.kinds[gk][gv.Version] = &kindEntry{gvk: ok.gvk, source: b.source(), build: func() (*kindSchema, error) {
				return inlinedKindSchema(ok, resolve())
			}}
		}
	}
	return nil
}

// source names the built-in schemas in an error.
func (b *builtinSet) source() string {
	return "the built-in schemas of Kubernetes " + strings.TrimPrefix(b.version, "v")
}

// resolver returns, for one group-version, a function that makes the
// resolver of one kind's build: it decodes each component schema the kind
// needs once, when first needed.
func (b *builtinSet) resolver(f *bundleFile, g *bundleGV) func() func(string) (any, bool) {
	return func() func(string) (any, bool) {
		refs, err := g.components()
		decoded := map[string]any{}
		return func(name string) (any, bool) {
			if err != nil {
				return nil, false
			}
			if v, ok := decoded[name]; ok {
				return v, true
			}
			i, ok := refs[name]
			if !ok || i < 0 || i >= len(f.Schemas) {
				return nil, false
			}
			v, derr := DecodeJSON(f.Schemas[i])
			if derr != nil {
				return nil, false
			}
			decoded[name] = v
			return v, true
		}
	}
}

// versions lists the built-in versions of a group and kind.
func (b *builtinSet) versions(gk schema.GroupKind) (map[string]*kindEntry, error) {
	if err := b.index(); err != nil || !b.present() {
		return nil, err
	}
	return b.kinds[gk], nil
}

// builtinGroups are the API groups the Kubernetes API server serves itself
// (the groups of the bundle; a test keeps them equal). A build without the
// bundle knows from them that a document's kind should have been covered.
var builtinGroups = map[string]bool{
	"":                             true,
	"admissionregistration.k8s.io": true,
	"apiextensions.k8s.io":         true,
	"apiregistration.k8s.io":       true,
	"apps":                         true,
	"authentication.k8s.io":        true,
	"authorization.k8s.io":         true,
	"autoscaling":                  true,
	"batch":                        true,
	"certificates.k8s.io":          true,
	"coordination.k8s.io":          true,
	"discovery.k8s.io":             true,
	"events.k8s.io":                true,
	"flowcontrol.apiserver.k8s.io": true,
	"internal.apiserver.k8s.io":    true,
	"lifecycle.k8s.io":             true,
	"networking.k8s.io":            true,
	"node.k8s.io":                  true,
	"policy":                       true,
	"rbac.authorization.k8s.io":    true,
	"resource.k8s.io":              true,
	"scheduling.k8s.io":            true,
	"storage.k8s.io":               true,
	"storagemigration.k8s.io":      true,
}

// noBuiltinsText is the error of a document of a built-in group that no
// given schema covers, in a build without the bundle.
const noBuiltinsText = "this build carries no built-in schemas of the Kubernetes kinds (it was built from a checkout without the committed internal/validate/builtin/data bundle): " +
	"build it from a whole checkout (`make builtin-schemas` regenerates the bundle), or pass the cluster's saved /openapi/v3 document of this group-version"

// shownGroup names an API group in a message: "core" for the core group.
func shownGroup(group string) string {
	if group == "" {
		return "core"
	}
	return group
}
