package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/manifest"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// plain turns an engine value into the JSON-like data the Kubernetes code
// works on (map[string]any, []any, int64, float64, string, bool, nil).
// Unknown values are left out (a map key is dropped, a list item becomes
// null) and their field paths, as the API server writes them, are returned
// so that the violations that depend on them can wait.
func plain(v value.Value) (any, []string) {
	var unknown []string
	out := plainAt(v, "", &unknown)
	return out, unknown
}

func plainAt(v value.Value, path string, unknown *[]string) any {
	switch t := v.(type) {
	case *value.Map:
		m := make(map[string]any, t.Len())
		for i := 0; i < t.Len(); i++ {
			k, e := t.At(i)
			p := childPath(path, k)
			if isUnknown(e) {
				*unknown = append(*unknown, p)
				continue
			}
			m[k] = plainAt(e, p, unknown)
		}
		return m
	case []value.Value:
		l := make([]any, len(t))
		for i, e := range t {
			p := path + "[" + strconv.Itoa(i) + "]"
			if isUnknown(e) {
				*unknown = append(*unknown, p)
				continue
			}
			l[i] = plainAt(e, p, unknown)
		}
		return l
	case int:
		return int64(t)
	default:
		return t
	}
}

func isUnknown(v value.Value) bool {
	_, ok := v.(value.Unknown)
	return ok
}

func childPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// related reports whether a violation at path p may depend on a value not
// known yet at path u: p is u, an ancestor of u (a rule there may read it) or
// a descendant of it. The root ("") is an ancestor of every path.
func related(p, u string) bool {
	return within(u, p) || within(p, u)
}

// within reports whether path p is path a or lies under it.
func within(p, a string) bool {
	if a == "" || p == a {
		return true
	}
	return strings.HasPrefix(p, a) && (p[len(a)] == '.' || p[len(a)] == '[')
}

// stringAt reads the string at a path of a plain document; ok is false when
// the value is absent or not a string.
func stringAt(doc map[string]any, path ...string) (string, bool) {
	var v any = doc
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		v = m[k]
	}
	s, ok := v.(string)
	return s, ok
}

// manifestID is the document's ID as the provider's manifests() keys it
// (package manifest), with "_" also for an absent kind or name: a document
// without them is still checked, and its violations need a name.
func manifestID(doc map[string]any) string {
	part := func(path ...string) string {
		if s, ok := stringAt(doc, path...); ok && s != "" {
			return s
		}
		return "_"
	}
	group := manifest.CoreGroup
	if av, ok := stringAt(doc, "apiVersion"); ok {
		group = manifest.Group(av)
	}
	return fmt.Sprintf("%s/%s/%s/%s", group, part("kind"), part("metadata", "namespace"), part("metadata", "name"))
}
