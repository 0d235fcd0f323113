// Package manifest computes the manifest ID of a rendered document, the
// key the data source page (docs/data-sources/render.md) fixes for the data source's `manifests`, the
// manifests() function and `celyaml render -o manifests`:
// group/Kind/namespace/name, where group is the part of apiVersion before
// "/" (or "_" for the core group and a missing apiVersion) and namespace is
// "_" when absent. A document without kind or metadata.name has no ID.
//
// It works on engine values; internal/provider/manifests.go applies the
// same rule to Terraform values, and the two are tested against each
// other there.
package manifest

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// CoreGroup stands for the core API group and for an absent namespace.
const CoreGroup = "_"

// Group returns the API group of an apiVersion.
func Group(apiVersion string) string {
	if i := strings.IndexByte(apiVersion, '/'); i > 0 {
		return apiVersion[:i]
	}
	return CoreGroup
}

// ID computes a document's ID. skip is true for a document that has no
// kind or no metadata.name (or is no mapping); unknown is true when a part
// of the ID is not known yet; an error says which part is not a string.
func ID(doc value.Value) (id string, skip, unknown bool, err error) {
	if _, u := doc.(value.Unknown); u {
		return "", false, true, nil
	}
	kind, ks, err := part(doc, "kind")
	if err != nil {
		return "", false, false, err
	}
	name, ns, err := part(doc, "metadata", "name")
	if err != nil {
		return "", false, false, err
	}
	if ks == partAbsent || ns == partAbsent {
		return "", true, false, nil
	}
	namespace, nss, err := part(doc, "metadata", "namespace")
	if err != nil {
		return "", false, false, err
	}
	apiVersion, as, err := part(doc, "apiVersion")
	if err != nil {
		return "", false, false, err
	}
	if ks == partUnknown || ns == partUnknown || nss == partUnknown || as == partUnknown {
		return "", false, true, nil
	}
	group := CoreGroup
	if as == partKnown {
		group = Group(apiVersion)
	}
	if nss == partAbsent {
		namespace = CoreGroup
	}
	return group + "/" + kind + "/" + namespace + "/" + name, false, false, nil
}

// state says what a document holds at a path.
type state uint8

const (
	partAbsent  state = iota // missing, null, or under something that is no mapping
	partUnknown              // not known yet
	partKnown                // a string
)

// part reads the string at path in doc; a final value that is neither
// null, unknown nor a string is an error.
func part(doc value.Value, path ...string) (string, state, error) {
	v := doc
	for _, k := range path {
		switch m := v.(type) {
		case value.Unknown:
			return "", partUnknown, nil
		case *value.Map:
			var ok bool
			if v, ok = m.Get(k); !ok {
				return "", partAbsent, nil
			}
		default:
			return "", partAbsent, nil
		}
	}
	switch x := v.(type) {
	case nil:
		return "", partAbsent, nil
	case value.Unknown:
		return "", partUnknown, nil
	case string:
		return x, partKnown, nil
	}
	return "", partAbsent, fmt.Errorf("%s must be a string, got %s", strings.Join(path, "."), kindName(v))
}

// kindName names a value's kind as the provider's messages name a
// Terraform value's type.
func kindName(v value.Value) string {
	switch v.(type) {
	case bool:
		return "a bool"
	case int64, float64:
		return "a number"
	case *value.Map:
		return "an object"
	case []value.Value:
		return "a list"
	}
	return fmt.Sprintf("a value of type %T", v)
}

// ForError is a document's ID as an error message names the document
// (reference §6): whole, as the API server names an object it refuses. In
// a render the caller marked sensitive (hide: the engine's HideKeys, the
// data source's sensitive = true), it is as Shown writes its parts with
// the strings written gives; written is called only then, and may be nil
// (every part but "_" hidden).
func ForError(id string, hide bool, written func() func(string) bool) string {
	if !hide {
		return id
	}
	parts, ok := Split(id)
	if !ok || written == nil {
		return Shown(parts, nil)
	}
	return Shown(parts, written())
}

// Shown writes an ID for the error message of a render the caller marked
// sensitive, from its parts (group, kind, namespace, name): a part is
// written only when written reports that the template writes it (or it is
// the placeholder "_"); any other part is written "…" in its place
// (reference §6). A nil written hides every part but "_".
func Shown(parts [4]string, written func(string) bool) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		if p == CoreGroup || (written != nil && written(p)) {
			out[i] = p
		} else {
			out[i] = "…"
		}
	}
	return strings.Join(out, "/")
}

// Split splits an ID that ID built into its four parts; ok is false when
// a part holds "/" itself, and the split is ambiguous.
func Split(id string) (parts [4]string, ok bool) {
	fs := strings.Split(id, "/")
	if len(fs) != 4 {
		return parts, false
	}
	copy(parts[:], fs)
	return parts, true
}

// Written reports the strings that templates' texts write as whole YAML
// scalars (keys and values, directive text included), and the group of
// each, as apiVersion gives it: an ID part that is one of them is template
// text, for Shown, as is a value that a transform's error may quote. A
// text that does not parse writes nothing after the point where it stops
// parsing.
func Written(texts ...string) func(string) bool {
	written := map[string]bool{}
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			written[n.Value], written[Group(n.Value)] = true, true
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	for _, text := range texts {
		dec := yaml.NewDecoder(strings.NewReader(text))
		for {
			var n yaml.Node
			if dec.Decode(&n) != nil {
				break
			}
			walk(&n)
		}
	}
	return func(s string) bool { return written[s] }
}
