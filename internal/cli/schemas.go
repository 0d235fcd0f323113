package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"github.com/celyaml/terraform-provider-celyaml/internal/validate"
)

// --schemas: the rendered documents are checked against CRDs and OpenAPI
// documents as the provider's validate function checks them (the validating
// guide, docs/guides/validating.md), with the same message on failure.

// schemaFiles lists the files under each path: a file as it is, a
// directory's .yaml, .yml and .json files in name order.
func schemaFiles(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, problem(fmt.Errorf("--schemas %s: %w", p, errors.Unwrap(err)))
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, problem(fmt.Errorf("--schemas %s: %w", p, err))
		}
		var names []string
		for _, e := range entries {
			switch strings.ToLower(filepath.Ext(e.Name())) {
			case ".yaml", ".yml", ".json":
				if !e.IsDir() {
					names = append(names, filepath.Join(p, e.Name()))
				}
			}
		}
		sort.Strings(names)
		files = append(files, names...)
	}
	return files, nil
}

// loadSchemas reads every document of the schema files and indexes the
// kinds they define; a kind's validators are built when a rendered document
// of it is first checked. A .json file (a saved /openapi/v3 document, a
// megabyte or more) is read as JSON, much faster than as YAML; a YAML file
// seen before comes from the cache (schemacache.go), and of it only the
// CRDs of the kinds checked are ever decoded.
func (in *inputs) loadSchemas(paths []string) (*loadedSchemas, error) {
	files, err := schemaFiles(paths)
	if err != nil {
		return nil, err
	}
	var docs []validate.Indexed
	scopes := map[string]bool{}
	cache := schemaCacheDir()
	for _, f := range files {
		text, err := in.readFile(f)
		if err != nil {
			return nil, problem(fmt.Errorf("--schemas: %w", err))
		}
		if strings.EqualFold(filepath.Ext(f), ".json") {
			if d, err := validate.DecodeJSON(text); err == nil {
				docs = append(docs, validate.Indexed{Value: d})
				addScope(scopes, d)
				continue
			}
			// Not one JSON value: read as YAML, for its positioned error.
		}
		if cached, ok := cachedSchemas(cache, text); ok {
			for _, d := range cached {
				if d.CRD != nil {
					addIndexScope(scopes, d.CRD)
				}
			}
			docs = append(docs, cached...)
			continue
		}
		var plains []any
		dec := yaml.NewDecoder(bytes.NewReader(text))
		for {
			var n yaml.Node
			if err := dec.Decode(&n); err == io.EOF {
				break
			} else if err != nil {
				return nil, problem(fmt.Errorf("%s: %s", f, strings.TrimPrefix(err.Error(), "yaml: ")))
			}
			v, yerr := yamlnode.Plain(&n)
			if yerr != nil {
				return nil, problem(fmt.Errorf("%s:%d:%d: %s", f, yerr.Node.Line, yerr.Node.Column, yerr.Msg))
			}
			p, err := validate.Plain(v)
			if err != nil {
				return nil, problem(fmt.Errorf("--schemas: %w", err))
			}
			plains = append(plains, p)
			addScope(scopes, p)
		}
		docs = append(docs, indexedSchemas(cache, text, plains)...)
	}
	s, err := validate.LoadIndexed(docs)
	if err != nil {
		return nil, problem(fmt.Errorf("--schemas: %w", err))
	}
	return &loadedSchemas{Schemas: s, scopes: scopes}, nil
}

// addIndexScope records the scope of a CRD read from the cache, as
// addScope records it from the document.
func addIndexScope(scopes map[string]bool, ix *validate.CRDIndex) {
	switch ix.Scope {
	case "Namespaced":
		scopes[ix.Group+"/"+ix.Kind] = true
	case "Cluster":
		scopes[ix.Group+"/"+ix.Kind] = false
	}
}

// loadedSchemas are the --schemas documents: their validators, and the
// scope of each kind a CustomResourceDefinition among them defines, which
// a $transform's namespace needs for kinds not defined in the render
// (reference §10).
type loadedSchemas struct {
	*validate.Schemas
	scopes map[string]bool // "group/Kind": namespaced
}

// addScope records the scope of the kind d defines, if d is a
// CustomResourceDefinition that says it.
func addScope(scopes map[string]bool, d any) {
	m, _ := d.(map[string]any)
	if m == nil || m["kind"] != "CustomResourceDefinition" {
		return
	}
	if av, _ := m["apiVersion"].(string); !strings.HasPrefix(av, "apiextensions.k8s.io/") {
		return
	}
	spec, _ := m["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	group, _ := spec["group"].(string)
	kind, _ := names["kind"].(string)
	switch spec["scope"] {
	case "Namespaced":
		scopes[group+"/"+kind] = true
	case "Cluster":
		scopes[group+"/"+kind] = false
	}
}

// checkSchemas validates the rendered documents: an error listing every
// violation, or nil.
func (in *inputs) checkSchemas(s *loadedSchemas, docs []engine.Document, o validate.Options) error {
	if s == nil {
		return nil
	}
	values := make([]value.Value, len(docs))
	for i, d := range docs {
		values[i] = d.Value
	}
	lines, err := s.CheckAllWith(values, o)
	if err != nil {
		return problem(fmt.Errorf("--schemas: %w", err))
	}
	if len(lines) > 0 {
		return problem(errors.New(validate.RefusalText(lines)))
	}
	return nil
}
