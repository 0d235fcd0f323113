package cli

import (
	"fmt"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/manifest"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// Manifest IDs of the rendered documents, by the rule of package manifest
// (the one the provider's `manifests` follows); two documents with one ID
// are an error, worded as the provider words it.

// manifestIDs returns each document's ID, "" for a document that has none.
// origins, when given, say where the template produced each document. A
// duplicate ID's error names the ID whole (reference §6), as the data
// source's does.
func manifestIDs(docs []value.Value, origins []engine.Pos) ([]string, error) {
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

// manifestID is one document's ID, or "" when it has none.
func manifestID(d value.Value) (string, error) {
	id, skip, unknown, err := manifest.ID(d)
	if err != nil || skip || unknown { // a rendered document holds no unknown
		return "", err
	}
	return id, nil
}
