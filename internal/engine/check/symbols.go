package check

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/loader"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/options"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/schema"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
)

// What an editor needs to know of a template's names (`celyaml lsp`):
// which names are in scope where, where each is bound, what a $schema
// says of its variable, and where the literal $include paths are. It
// reads the compiled template (symbols_tree.go) and evaluates nothing, so
// it never sees a value. Scopes follow reference §4: a mapping's $schema,
// $let and $for names are in scope in the whole mapping, a $let entry
// sees the entries before it, and a preamble's names are in scope in the
// documents after it. Where a template does not compile, what holds the
// error has the names of the mapping around it.

// Symbols is the names of one template file.
type Symbols struct {
	// Scopes are the template's keys and scalars in the order of their
	// positions, each with the names in scope there.
	Scopes []ScopeAt
	// Includes are the $include directives whose path is a literal string.
	Includes []IncludeRef
}

// ScopeAt is a node of the template and the names in scope at it, the
// innermost binding of a name last.
type ScopeAt struct {
	Pos   diag.Pos
	Names []*Binding
	// Expr says the node is a CEL expression as a whole: the value of a
	// $let entry, $if, $for or $assert.
	Expr bool
}

// Binding is a name a template declares.
type Binding struct {
	Name string
	// Kind is "let", "for", "schema", or "overlay" (doc and item, bound by
	// $overlay, $match and $remove).
	Kind string
	// Pos is where it is bound: the key of its $let or $schema entry, the
	// name in the $for expression, or the overlay directive's key.
	Pos diag.Pos
	// Schema is what the $schema entry says of the variable, for "schema"
	// names (read from the file for {$include: FILE}); nil otherwise, or
	// when the file cannot be read or parsed.
	Schema *SchemaInfo
}

// SchemaInfo is what a JSON Schema says that an editor shows.
type SchemaInfo struct {
	Type        string // the type keyword ("" when absent; several joined with "|")
	Description string
	// Properties are the object's properties in the order written.
	Properties []SchemaProperty
	// Items is the schema of a list's elements, when given.
	Items *SchemaInfo
}

// SchemaProperty is one property of an object schema.
type SchemaProperty struct {
	Name   string
	Schema *SchemaInfo
}

// IncludeRef is a literal $include path.
type IncludeRef struct {
	Pos  diag.Pos // the path's position in the template
	Path string   // as written
	File string   // resolved against the template's directory
}

// maxSchemaDepth bounds how deep Symbols reads nested schemas.
const maxSchemaDepth = 64

// ReadSymbols reads the names of src, reading included schema files
// through opts.Loader within opts.MaxTemplateBytes. A YAML syntax error
// ends the reading: the symbols of the documents before it are returned
// with the error.
func ReadSymbols(t *tree.Table, opts options.Options, src walk.Source) (*Symbols, error) {
	e := symOptions{opts}
	s := &Symbols{}
	if len(src.Text) > e.symLimit() {
		return s, errors.New("template is larger than MaxTemplateBytes")
	}
	file, dir := src.Name, src.BaseDir
	if file == "" {
		file = walk.InlineName
	} else {
		dir = filepath.Dir(src.Name)
	}
	if dir == "" {
		dir = "."
	}
	r := &symReader{t: t, e: e, s: s, file: file, dir: dir}
	dec := yaml.NewDecoder(bytes.NewReader(src.Text))
	var preamble []*Binding
	var err error
	for {
		var doc yaml.Node
		if err = dec.Decode(&doc); err != nil {
			break
		}
		preamble = r.document(&doc, preamble)
	}
	sort.SliceStable(s.Includes, func(i, j int) bool { return symPosLess(s.Includes[i].Pos, s.Includes[j].Pos) })
	sort.SliceStable(s.Scopes, func(i, j int) bool { return symPosLess(s.Scopes[i].Pos, s.Scopes[j].Pos) })
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return s, err
}

// InExpression reports whether line and column (1-based) fall in a node
// that is a CEL expression as a whole (a $let entry's value, $if, $for,
// $assert), as far as the last node that starts at or before it says.
func (s *Symbols) InExpression(line, column int) bool {
	at := diag.Pos{Line: line, Column: column}
	i := sort.Search(len(s.Scopes), func(i int) bool { return symPosLess(at, s.Scopes[i].Pos) })
	return i > 0 && s.Scopes[i-1].Expr
}

// symOptions are the engine options the symbols read with.
type symOptions struct{ opts options.Options }

// symLimit is the engine's MaxTemplateBytes, or its default.
func (e symOptions) symLimit() int {
	if e.opts.MaxTemplateBytes > 0 {
		return e.opts.MaxTemplateBytes
	}
	return options.Default().MaxTemplateBytes
}

// symLoader is the engine's Loader, or its default.
func (e symOptions) symLoader() loader.Loader {
	if e.opts.Loader != nil {
		return e.opts.Loader
	}
	return loader.OSLoader{}
}

// At gives the names in scope at line and column (1-based, as Pos): those
// of the last node that starts at or before it, each name once (its
// innermost binding), sorted by name.
func (s *Symbols) At(line, column int) []*Binding {
	at := diag.Pos{Line: line, Column: column}
	i := sort.Search(len(s.Scopes), func(i int) bool { return symPosLess(at, s.Scopes[i].Pos) })
	if i == 0 {
		return nil
	}
	seen := map[string]*Binding{}
	for _, b := range s.Scopes[i-1].Names {
		seen[b.Name] = b
	}
	out := make([]*Binding, 0, len(seen))
	for _, b := range seen {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup gives the binding of name in scope at line and column, or nil.
func (s *Symbols) Lookup(line, column int, name string) *Binding {
	for _, b := range s.At(line, column) {
		if b.Name == name {
			return b
		}
	}
	return nil
}

func symPosLess(a, b diag.Pos) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}

// includedSchema reads the schema of {$include: FILE} in a $schema entry
// through the engine's Loader: a JSON or YAML file (a chart's
// values.schema.json). Its $ref are not followed.
func (r *symReader) includedSchema(n *yaml.Node) *SchemaInfo {
	n = symDeref(n)
	if n == nil || n.Kind != yaml.MappingNode || len(n.Content) != 2 || n.Content[0].Value != schema.IncludeKey {
		return nil
	}
	p := symDeref(n.Content[1])
	if p == nil || p.Kind != yaml.ScalarNode || p.Value == "" || strings.Contains(p.Value, "${{") {
		return nil
	}
	file := p.Value
	if !filepath.IsAbs(file) {
		file = filepath.Join(r.dir, file)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	text, err := r.e.symLoader().ReadFile(ctx, file, r.e.symLimit())
	if err != nil {
		return nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	return schemaInfo(doc.Content[0], 0)
}

func symDeref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 64; i++ {
		n = n.Alias
	}
	return n
}

// schemaOf reads what a variable's schema says, from the file of
// {$include: FILE}.
func (r *symReader) schemaOf(n *yaml.Node) *SchemaInfo {
	if s := schemaInfo(n, 0); s != nil {
		return s
	}
	return r.includedSchema(n)
}

// schemaInfo reads the type, description, properties and items of a
// schema node; nil for a schema given by $include or that is no schema.
func schemaInfo(n *yaml.Node, depth int) *SchemaInfo {
	n = symDeref(n)
	if n == nil || depth > maxSchemaDepth {
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!str" {
			return &SchemaInfo{Type: n.Value} // the shorthand env: string
		}
		return nil
	case yaml.MappingNode:
	default:
		return nil
	}
	info := &SchemaInfo{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, symDeref(n.Content[i+1])
		if v == nil {
			continue
		}
		switch k {
		case schema.IncludeKey:
			return nil
		case "type":
			switch v.Kind {
			case yaml.ScalarNode:
				info.Type = v.Value
			case yaml.SequenceNode:
				var ts []string
				for _, t := range v.Content {
					ts = append(ts, t.Value)
				}
				info.Type = strings.Join(ts, "|")
			}
		case "description":
			if v.Kind == yaml.ScalarNode {
				info.Description = v.Value
			}
		case "properties":
			if v.Kind == yaml.MappingNode {
				for j := 0; j+1 < len(v.Content); j += 2 {
					info.Properties = append(info.Properties, SchemaProperty{Name: v.Content[j].Value, Schema: schemaInfo(v.Content[j+1], depth+1)})
				}
			}
		case "items":
			info.Items = schemaInfo(v, depth+1)
		}
	}
	return info
}
