package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/schema"
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

// schemaSet gives the directive's set with every included schema read and
// compiled.
func (r *renderer) schemaSet(d *schemaDir, fr *frame) (*schema.Set, error) {
	incs := d.set.Includes()
	if len(incs) == 0 {
		return d.set, nil
	}
	texts := make([][]byte, len(incs))
	frames := make([]*frame, len(incs))
	for i, inc := range incs {
		shown := inc.Path
		if !filepath.IsAbs(shown) {
			shown = filepath.Join(fr.dir, shown)
		}
		resolved := filepath.Clean(shown)
		if len(fr.chain)+1 > r.e.opts.MaxIncludeDepth {
			return nil, r.limitErr(fr, inc.Key, d.path, "MaxIncludeDepth", "includes nest deeper than MaxIncludeDepth ("+itoa(r.e.opts.MaxIncludeDepth)+")")
		}
		text, err := r.schemaFileText(fr, inc, d.path, shown, resolved)
		if err != nil {
			return nil, err
		}
		texts[i] = text
		chain := append([]Pos{{File: fr.file, Line: inc.Dir.Line, Column: inc.Dir.Column}}, fr.chain...)
		frames[i] = &frame{file: filepath.ToSlash(shown), dir: filepath.Dir(shown), real: resolved, chain: chain}
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
			cerr.path = d.path
			return nil, r.compileErr(frames[i], cerr)
		}
		docs[i] = doc
	}
	set, which, nerr := d.set.Resolve(docs)
	if nerr != nil {
		return nil, r.compileErr(frames[which], fromNodeError(nerr, d.path))
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
func (r *renderer) schemaFileText(fr *frame, inc schema.Include, path, shown, resolved string) ([]byte, error) {
	if text, ok := r.schemaTexts[resolved]; ok {
		return text, nil
	}
	text, err := r.e.opts.Loader.ReadFile(r.ctx, shown, r.e.opts.MaxTemplateBytes)
	if errors.Is(err, fileread.ErrTooLarge) {
		return nil, r.limitErr(fr, inc.At, path, "MaxTemplateBytes", "included schema file "+quote(filepath.ToSlash(shown))+" is larger than MaxTemplateBytes ("+itoa(r.e.opts.MaxTemplateBytes)+" bytes)")
	}
	if err != nil {
		return nil, r.errAt(fr, inc.At, path, "cannot read included schema file "+quote(filepath.ToSlash(shown))+": "+loadErrText(err))
	}
	if r.schemaTexts == nil {
		r.schemaTexts = map[string][]byte{}
	}
	r.schemaTexts[resolved] = text
	return text, nil
}

// parseSchemaFile reads a schema file's one document, JSON or YAML, with
// the positioned errors a template's YAML gets. A .json file must be
// JSON, and its syntax errors are JSON's, at the byte where it fails
// (YAML's parser often names a line before it).
func parseSchemaFile(text []byte, isJSON bool) (*yaml.Node, *compileError) {
	if cerr := checkText(text); cerr != nil {
		cerr.msg = strings.Replace(cerr.msg, "a template", "a schema file", 1)
		cerr.msg = strings.Replace(cerr.msg, "the template", "the schema file", 1)
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
			return nil, &compileError{line: 1, column: 1, msg: "the schema file is empty; it must hold one JSON Schema", offset: -1}
		}
		return nil, yamlParseError(err, text)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, yamlParseError(err, text)
	default:
		return nil, &compileError{node: &next, msg: "the schema file holds more than one document; it must hold one JSON Schema", offset: -1}
	}
	return &doc, nil
}

// jsonSyntaxError is the first syntax error of the JSON text, at its line
// and column, or nil.
func jsonSyntaxError(text []byte) *compileError {
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
	return &compileError{line: line, column: col, msg: "invalid JSON: " + err.Error(), offset: -1}
}

// schemaFiles has check read the files a $schema includes, as render
// does: they are JSON Schemas, never checked as templates. A $schema that
// does not compile is the compiler's to report.
func (ck *checker) schemaFiles(fr *frame, key, v *yaml.Node, path string) {
	d, cerr := compileSchemaDir(key, v, path)
	if cerr != nil || len(d.set.Includes()) == 0 {
		return
	}
	r := &renderer{e: ck.e, ctx: ck.ctx}
	if _, err := r.schemaSet(d, fr); err != nil {
		var e *Error
		if errors.As(err, &e) {
			ck.problems = append(ck.problems, Problem{Err: e})
		}
	}
}
