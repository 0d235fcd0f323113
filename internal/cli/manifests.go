package cli

import (
	"fmt"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// Manifest IDs over engine values, by the rule PROVIDER.md fixes for the
// data source's `manifests` (internal/provider/manifests.go builds the same
// keys over Terraform values): group/Kind/namespace/name, "_" for the core
// group and for an absent namespace; documents without kind or
// metadata.name have none; two documents with one ID are an error.

// coreGroup stands for the core API group and for an absent namespace.
const coreGroup = "_"

// manifestIDs returns each document's ID, "" for a document that has none.
// origins, when given, say where the template produced each document.
func manifestIDs(docs []engine.Value, origins []engine.Pos) ([]string, error) {
	ids := make([]string, len(docs))
	first := make(map[string]int, len(docs))
	for i, d := range docs {
		id, err := manifestID(d)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if id == "" {
			continue
		}
		if j, dup := first[id]; dup {
			return nil, fmt.Errorf("documents %s and %s have the same manifest ID %q (apiVersion group, kind, metadata.namespace and metadata.name); every manifest must be unique (documents are counted from 0)",
				docAt(j, origins), docAt(i, origins), id)
		}
		first[id], ids[i] = i, id
	}
	return ids, nil
}

func docAt(i int, origins []engine.Pos) string {
	if i < len(origins) && origins[i].File != "" {
		return fmt.Sprintf("%d (from %s)", i, origins[i])
	}
	return fmt.Sprint(i)
}

// manifestID is one document's ID, or "" when it has no kind or name.
func manifestID(d engine.Value) (string, error) {
	kind, err := docPart(d, "kind")
	if err != nil || kind == nil {
		return "", err
	}
	name, err := docPart(d, "metadata", "name")
	if err != nil || name == nil {
		return "", err
	}
	namespace, err := docPart(d, "metadata", "namespace")
	if err != nil {
		return "", err
	}
	apiVersion, err := docPart(d, "apiVersion")
	if err != nil {
		return "", err
	}
	group, ns := coreGroup, coreGroup
	if apiVersion != nil {
		if i := strings.IndexByte(*apiVersion, '/'); i > 0 {
			group = (*apiVersion)[:i]
		}
	}
	if namespace != nil {
		ns = *namespace
	}
	return group + "/" + *kind + "/" + ns + "/" + *name, nil
}

// docPart reads the string at path in d: nil when absent or null, or when
// the path goes through something that is not a mapping; an error when
// the value there is not a string.
func docPart(d engine.Value, path ...string) (*string, error) {
	v := d
	for _, k := range path {
		m, ok := v.(*engine.Map)
		if !ok {
			return nil, nil
		}
		if v, ok = m.Get(k); !ok {
			return nil, nil
		}
	}
	switch s := v.(type) {
	case nil:
		return nil, nil
	case string:
		return &s, nil
	}
	return nil, fmt.Errorf("%s must be a string, got %s", strings.Join(path, "."), typeName(v))
}

// typeName names a value's kind as the provider's messages do.
func typeName(v engine.Value) string {
	switch v.(type) {
	case bool:
		return "a bool"
	case int64, float64:
		return "a number"
	case *engine.Map:
		return "an object"
	case []engine.Value:
		return "a list"
	}
	return fmt.Sprintf("a value of type %T", v)
}
