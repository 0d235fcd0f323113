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
// reads the YAML alone and evaluates nothing, so it never sees a value.
// Scopes follow the checker's rules (reference §4): a mapping's $schema,
// $let and $for names are in scope in the whole mapping, a $let entry
// sees the entries before it, and a preamble's names are in scope in the
// documents after it.

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
	w := &symWalker{t: t, e: e, s: s, file: file, dir: dir}
	dec := yaml.NewDecoder(bytes.NewReader(src.Text))
	var preamble []*Binding
	var err error
	for {
		var doc yaml.Node
		if err = dec.Decode(&doc); err != nil {
			break
		}
		w.walk(&doc, preamble, 0)
		if len(doc.Content) > 0 {
			if root := doc.Content[0]; root.Kind == yaml.MappingNode && preludeOnly(t, root) {
				preamble = w.mappingScope(root, preamble, true)
			}
		}
	}
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

type symWalker struct {
	t         *tree.Table
	e         symOptions
	s         *Symbols
	file, dir string
}

// includedSchema reads the schema of {$include: FILE} in a $schema entry
// through the engine's Loader: a JSON or YAML file (a chart's
// values.schema.json). Its $ref are not followed.
func (w *symWalker) includedSchema(n *yaml.Node) *SchemaInfo {
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
		file = filepath.Join(w.dir, file)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	text, err := w.e.symLoader().ReadFile(ctx, file, w.e.symLimit())
	if err != nil {
		return nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	return schemaInfo(doc.Content[0], 0)
}

func (w *symWalker) pos(n *yaml.Node) diag.Pos {
	return diag.Pos{File: w.file, Line: n.Line, Column: n.Column}
}

func (w *symWalker) record(n *yaml.Node, scope []*Binding) {
	w.s.Scopes = append(w.s.Scopes, ScopeAt{Pos: w.pos(n), Names: scope[:len(scope):len(scope)]})
}

// recordExpr records the scalar n, the value of an expression directive.
func (w *symWalker) recordExpr(n *yaml.Node, scope []*Binding) {
	w.s.Scopes = append(w.s.Scopes, ScopeAt{Pos: w.pos(n), Names: scope[:len(scope):len(scope)], Expr: true})
}

func symDeref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 64; i++ {
		n = n.Alias
	}
	return n
}

func (w *symWalker) walk(n *yaml.Node, scope []*Binding, depth int) {
	if n == nil || depth > 1000 {
		return
	}
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			w.walk(c, scope, depth+1)
		}
	case yaml.MappingNode:
		before := scope
		scope = w.mappingScope(n, scope, false)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			w.record(k, scope)
			dv := symDeref(v)
			d := described(w.t, k.Value)
			switch {
			case d.Exprs == tree.ExprEntries && dv != nil && dv.Kind == yaml.MappingNode:
				w.walkLet(n, i, dv, before, depth)
				continue
			case d.Includes && dv != nil && dv.Kind == yaml.ScalarNode && dv.Tag == "!!str" && dv.Value != "" && !strings.Contains(dv.Value, "${{"):
				p := dv.Value
				if !filepath.IsAbs(p) {
					p = filepath.Join(w.dir, p)
				}
				w.s.Includes = append(w.s.Includes, IncludeRef{Pos: w.pos(dv), Path: dv.Value, File: p})
			}
			if d.WholeExpr() && v.Kind == yaml.ScalarNode {
				w.recordExpr(v, scope)
				continue
			}
			if v.Kind != yaml.AliasNode {
				w.walk(v, scope, depth+1)
			}
		}
	case yaml.ScalarNode:
		w.record(n, scope)
	}
}

// walkLet walks the entries let of the directive at key index at of
// mapping n, a $let: each sees the mapping's other names and the entries
// before it.
func (w *symWalker) walkLet(n *yaml.Node, at int, let *yaml.Node, before []*Binding, depth int) {
	kind := described(w.t, n.Content[at].Value).BoundKind
	sc := append(before[:len(before):len(before)], besideEntries(w.t, n, at, w.file, w.schemaOf)...)
	for j := 0; j+1 < len(let.Content); j += 2 {
		k, v := let.Content[j], let.Content[j+1]
		w.record(k, sc)
		if v.Kind == yaml.ScalarNode {
			w.recordExpr(v, sc)
		} else if v.Kind != yaml.AliasNode {
			w.walk(v, sc, depth+1)
		}
		sc = append(sc[:len(sc):len(sc)], &Binding{Name: k.Value, Kind: kind, Pos: w.pos(k)})
	}
}

// mappingScope adds the names a mapping's directives bind, as check
// binds them (scope.go), with what a $schema says of each variable.
func (w *symWalker) mappingScope(n *yaml.Node, scope []*Binding, preamble bool) []*Binding {
	scope = scope[:len(scope):len(scope)]
	return append(scope, bound(w.t, n, w.file, preamble, w.schemaOf)...)
}

// schemaOf reads what a variable's schema says, from the file of
// {$include: FILE}.
func (w *symWalker) schemaOf(n *yaml.Node) *SchemaInfo {
	if s := schemaInfo(n, 0); s != nil {
		return s
	}
	return w.includedSchema(n)
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
