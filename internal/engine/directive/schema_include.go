package directive

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/loader"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/schema"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/fileread"
	"go.yaml.in/yaml/v3"
)

// `$schema: {NAME: {$include: FILE}}` takes a variable's schema from a
// JSON or YAML file (reference §4 $schema). The file is found as any
// $include's is (relative to the including file), read through the
// engine's Loader at most once per render, counts toward MaxIncludeDepth
// and MaxTemplateBytes, and its errors point into it. It is parsed as
// plain YAML, not as a template: a chart's values.schema.json starts with
// JSON Schema's own "$schema" keyword. The compiled schema is kept per
// directive and file text, so a render only compiles a file that changed.

// schemaIncludes caches the resolved sets of one $schema directive by the
// texts of its files.
type schemaIncludes struct {
	mu   sync.Mutex
	sets map[string]*schema.Set
}

// maxSchemaIncludeSets bounds the cache of one directive; past it, the
// cache starts over.
const maxSchemaIncludeSets = 16

// Includes lists the variables whose schema is in a file, for check.
func (d *schemaDir) Includes() []schema.Include { return d.set.Includes() }

// ReadFiles reads and compiles the files the directive includes, as a
// render does, and gives the first error: for check, which reads them
// without rendering, and names the directive's path its own way (path).
func (d *schemaDir) ReadFiles(r tree.Renderer, fr *diag.Frame, path string) error {
	_, err := schemaSet(r, d, fr, path)
	return err
}

// schemaReader is what reading the files $schema includes calls: the
// render's context, options and cache of texts, and its errors.
type schemaReader interface {
	tree.Reporter
	tree.Inputs
}

// schemaSet gives the directive's set with every included schema read and
// compiled; its errors name the directive's path path.
func schemaSet(r schemaReader, d *schemaDir, fr *diag.Frame, path string) (*schema.Set, error) {
	incs := d.set.Includes()
	if len(incs) == 0 {
		return d.set, nil
	}
	opts := r.Options()
	texts := make([][]byte, len(incs))
	frames := make([]*diag.Frame, len(incs))
	for i, inc := range incs {
		shown := inc.Path
		if !filepath.IsAbs(shown) {
			shown = filepath.Join(fr.Dir, shown)
		}
		resolved := filepath.Clean(shown)
		if len(fr.Chain)+1 > opts.MaxIncludeDepth {
			return nil, r.LimitErr(fr, inc.Key, path, "MaxIncludeDepth", "includes nest deeper than MaxIncludeDepth ("+tree.Itoa(opts.MaxIncludeDepth)+")")
		}
		text, err := schemaFileText(r, fr, inc, path, shown, resolved)
		if err != nil {
			return nil, err
		}
		texts[i] = text
		chain := append([]diag.Pos{{File: fr.File, Line: inc.Dir.Line, Column: inc.Dir.Column}}, fr.Chain...)
		frames[i] = &diag.Frame{File: filepath.ToSlash(shown), Dir: filepath.Dir(shown), Real: resolved, Chain: chain}
	}
	key := string(bytes.Join(texts, []byte{0}))
	d.inc.mu.Lock()
	set := d.inc.sets[key]
	d.inc.mu.Unlock()
	if set != nil {
		return set, nil
	}
	docs := make([]*yaml.Node, len(incs))
	for i := range incs {
		doc, cerr := parseSchemaFile(texts[i], strings.EqualFold(filepath.Ext(incs[i].Path), ".json"))
		if cerr != nil {
			cerr.Path = path
			return nil, cerr.In(frames[i])
		}
		docs[i] = doc
	}
	set, which, nerr := d.set.Resolve(docs)
	if nerr != nil {
		return nil, tree.FromNodeError(nerr, path).In(frames[which])
	}
	d.inc.mu.Lock()
	if d.inc.sets == nil || len(d.inc.sets) >= maxSchemaIncludeSets {
		d.inc.sets = map[string]*schema.Set{}
	}
	d.inc.sets[key] = set
	d.inc.mu.Unlock()
	return set, nil
}

// schemaFileText reads an included schema file, at most once per render.
func schemaFileText(r schemaReader, fr *diag.Frame, inc schema.Include, path, shown, resolved string) ([]byte, error) {
	cache := r.Texts()
	if text, ok := cache[resolved]; ok {
		return text, nil
	}
	opts := r.Options()
	text, err := opts.Loader.ReadFile(r.Context(), shown, opts.MaxTemplateBytes)
	if errors.Is(err, fileread.ErrTooLarge) {
		return nil, r.LimitErr(fr, inc.At, path, "MaxTemplateBytes", "included schema file "+tree.Quote(filepath.ToSlash(shown))+" is larger than MaxTemplateBytes ("+tree.Itoa(opts.MaxTemplateBytes)+" bytes)")
	}
	if err != nil {
		return nil, r.ErrAt(fr, inc.At, path, "cannot read included schema file "+tree.Quote(filepath.ToSlash(shown))+": "+loader.ErrText(err))
	}
	cache[resolved] = text
	return text, nil
}

// parseSchemaFile reads a schema file's one document, JSON or YAML, with
// the positioned errors a template's YAML gets. A .json file must be
// JSON, and its syntax errors are JSON's, at the byte where it fails
// (YAML's parser often names a line before it).
func parseSchemaFile(text []byte, isJSON bool) (*yaml.Node, *tree.CompileError) {
	if cerr := tree.CheckText(text); cerr != nil {
		cerr.Msg = strings.Replace(cerr.Msg, "a template", "a schema file", 1)
		cerr.Msg = strings.Replace(cerr.Msg, "the template", "the schema file", 1)
		return nil, cerr
	}
	if isJSON {
		if cerr := jsonSyntaxError(text); cerr != nil {
			return nil, cerr
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, tree.CompileErrorAtLine(1, 1, "the schema file is empty; it must hold one JSON Schema")
		}
		return nil, tree.YAMLParseError(err, text)
	}
	if len(doc.Content) == 1 && emptyDocument(doc.Content[0]) {
		// "---" and nothing else: yaml.v3 places the empty value on the
		// line after the marker, which may not be in the file.
		return nil, tree.CompileErrorAtLine(doc.Line, doc.Column, "the schema file holds an empty document; it must hold one JSON Schema")
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, tree.YAMLParseError(err, text)
	default:
		return nil, tree.CompileErrorAt(&next, "", "the schema file holds more than one document; it must hold one JSON Schema")
	}
	return &doc, nil
}

// jsonSyntaxError is the first syntax error of the JSON text, at its line
// and column, or nil.
func jsonSyntaxError(text []byte) *tree.CompileError {
	var v any
	err := json.Unmarshal(text, &v)
	if err == nil {
		return nil
	}
	off := len(text)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset)
	}
	if off > 0 && off <= len(text) && err.Error() != "unexpected end of JSON input" {
		off-- // Offset is just past the byte that failed
	}
	line, col := 1, 1
	for _, c := range string(text[:min(off, len(text))]) {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return tree.CompileErrorAtLine(line, col, "invalid JSON: "+err.Error())
}

// emptyDocument reports whether a document's value is the null of a
// document with nothing in it (not a written null or ~).
func emptyDocument(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Value == ""
}
