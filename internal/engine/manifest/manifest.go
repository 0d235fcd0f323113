// Package manifest computes the manifest ID of a rendered document, the
// key the data source page (docs/data-sources/render.md) fixes for the data source's `manifests`, the
// manifests() function and `celyaml render -o manifests`:
// group/Kind/namespace/name, where group is the part of apiVersion before
// "/" (or "_" for the core group and a missing apiVersion) and namespace is
// "_" when absent. A document without kind or metadata.name has no ID.
//
// The rule itself is FromParts, written once; ID applies it to engine
// values (the raw read, the command line, overlay errors) and the provider
// applies it to Terraform values, reading only the parts; a test in the
// provider holds the two readers together.
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
	return FromParts(func(path ...string) (Part, error) { return part(doc, path...) })
}

// State says what a document holds at one of the paths an ID reads.
type State uint8

const (
	PartAbsent  State = iota // missing, null, or under something that is no mapping
	PartUnknown              // not known yet
	PartKnown                // a string
)

// Part is the string a document holds at one of the paths an ID reads.
type Part struct {
	Text  string
	State State
}

// FromParts is the manifest-ID rule, written once for every kind of
// document (engine values here, Terraform values in the provider): read
// gives the part of the document at a path (kind, metadata.name,
// metadata.namespace, apiVersion, read in that order, each at most once),
// or the error that the value there is not a string. skip is true for a
// document without kind or metadata.name, unknown when a part of the ID
// is not known yet.
func FromParts(read func(path ...string) (Part, error)) (id string, skip, unknown bool, err error) {
	kind, err := read("kind")
	if err != nil {
		return "", false, false, err
	}
	name, err := read("metadata", "name")
	if err != nil {
		return "", false, false, err
	}
	if kind.State == PartAbsent || name.State == PartAbsent {
		return "", true, false, nil
	}
	namespace, err := read("metadata", "namespace")
	if err != nil {
		return "", false, false, err
	}
	apiVersion, err := read("apiVersion")
	if err != nil {
		return "", false, false, err
	}
	if kind.State == PartUnknown || name.State == PartUnknown || namespace.State == PartUnknown || apiVersion.State == PartUnknown {
		return "", false, true, nil
	}
	group := CoreGroup
	if apiVersion.State == PartKnown {
		group = Group(apiVersion.Text)
	}
	ns := namespace.Text
	if namespace.State == PartAbsent {
		ns = CoreGroup
	}
	return group + "/" + kind.Text + "/" + ns + "/" + name.Text, false, false, nil
}

// part reads the string at path in doc; a final value that is neither
// null, unknown nor a string is an error.
func part(doc value.Value, path ...string) (Part, error) {
	v := doc
	for _, k := range path {
		switch m := v.(type) {
		case value.Unknown:
			return Part{State: PartUnknown}, nil
		case *value.Map:
			var ok bool
			if v, ok = m.Get(k); !ok {
				return Part{State: PartAbsent}, nil
			}
		default:
			return Part{State: PartAbsent}, nil
		}
	}
	switch x := v.(type) {
	case nil:
		return Part{State: PartAbsent}, nil
	case value.Unknown:
		return Part{State: PartUnknown}, nil
	case string:
		return Part{Text: x, State: PartKnown}, nil
	}
	return Part{State: PartAbsent}, fmt.Errorf("%s must be a string, got %s", strings.Join(path, "."), kindName(v))
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
