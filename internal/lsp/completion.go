package lsp

import (
	"regexp"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// exprKey is a directive whose value is a CEL expression as a whole, as
// the directive table describes them ($eval's is a string whose ${{ }}
// segments are).
var exprKey = exprKeyPattern()

func exprKeyPattern() *regexp.Regexp {
	var names []string
	for _, d := range engine.Directives() {
		if d.WholeExpr {
			names = append(names, regexp.QuoteMeta(strings.TrimPrefix(d.Name, "$")))
		}
	}
	return regexp.MustCompile(`\$(?:` + strings.Join(names, "|") + `)["']?\s*:`)
}

// directiveKey is a $ key being typed, alone on its line (after the
// indentation and an optional "- ") or after a flow mapping's "{" or ",".
var directiveKey = regexp.MustCompile(`(?:^\s*(?:-\s+)?|[{,]\s*)(\$[A-Za-z]*)$`)

// dottedTail is the name path before the cursor: values.image. gives
// [values image] and the partial field "".
var dottedTail = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*\.\s*([A-Za-z0-9_]*)$|([A-Za-z_][A-Za-z0-9_]*)?$`)

// inExpression reports whether the text before the cursor is inside a
// ${{ }} or the value of an expression directive on its line. (A $let
// entry's value, or an expression on a line of its own, is known from
// the template's Symbols.)
func inExpression(prefix string) bool {
	if i := strings.LastIndex(prefix, "${{"); i >= 0 && !strings.Contains(prefix[i:], "}}") {
		return true
	}
	return exprKey.MatchString(prefix)
}

func (s *Server) completion(_ *glsp.Context, p *protocol.CompletionParams) (any, error) {
	d := s.docs.get(p.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	line, col, lt, idx := fromLSP(d.text, p.Position)
	prefix := lt[:idx]
	items := []protocol.CompletionItem{}
	if m := directiveKey.FindStringSubmatchIndex(prefix); m != nil && !inExpression(prefix) {
		start := protocol.Position{Line: p.Position.Line, Character: protocol.UInteger(utf16Len(prefix[:m[2]]))}
		for _, name := range engine.DirectiveNames() {
			if !strings.HasPrefix(name, prefix[m[2]:]) {
				continue
			}
			items = append(items, protocol.CompletionItem{Label: name, Kind: ptr(protocol.CompletionItemKindKeyword),
				TextEdit: protocol.TextEdit{Range: protocol.Range{Start: start, End: p.Position}, NewText: name}})
		}
		return protocol.CompletionList{Items: items}, nil
	}
	syms := s.symbols(d)
	if syms == nil || !inExpression(prefix) && !syms.InExpression(line, col) {
		return protocol.CompletionList{Items: items}, nil
	}
	m := dottedTail.FindStringSubmatch(prefix)
	if m[1] != "" { // a field of a name: from its schema
		path := splitPath(m[1])
		b := syms.Lookup(line, col, path[0])
		if b == nil { // no name in scope: a namespace of functions (math.)
			return protocol.CompletionList{Items: functionItems(strings.Join(path, ".")+".", m[2])}, nil
		}
		if b.Schema == nil {
			return protocol.CompletionList{Items: items}, nil
		}
		sch := fieldSchema(b.Schema, path[1:])
		if sch == nil {
			return protocol.CompletionList{Items: items}, nil
		}
		for _, prop := range sch.Properties {
			if strings.HasPrefix(prop.Name, m[2]) {
				items = append(items, protocol.CompletionItem{Label: prop.Name, Kind: ptr(protocol.CompletionItemKindField),
					Detail: schemaDetail(prop.Schema), Documentation: schemaDoc(prop.Schema)})
			}
		}
		return protocol.CompletionList{Items: items}, nil
	}
	for _, b := range syms.At(line, col) {
		if strings.HasPrefix(b.Name, m[3]) {
			items = append(items, protocol.CompletionItem{Label: b.Name, Kind: ptr(protocol.CompletionItemKindVariable),
				Detail: bindingDetail(b), Documentation: schemaDoc(b.Schema)})
		}
	}
	if m[3] != "" { // a name begun: the functions it begins too, after the names in scope
		items = append(items, functionItems("", m[3])...)
	}
	return protocol.CompletionList{Items: items}, nil
}

// functionItems offers the CEL functions and macros (language reference
// §5) in namespace ns ("" or "math.") that begin with partial, each
// labelled with what is left to write after ns.
func functionItems(ns, partial string) []protocol.CompletionItem {
	items := []protocol.CompletionItem{}
	for _, fn := range engine.FunctionNames() {
		name, ok := strings.CutPrefix(fn, ns)
		if ok && strings.HasPrefix(name, partial) {
			items = append(items, protocol.CompletionItem{Label: name, Kind: ptr(protocol.CompletionItemKindFunction), Detail: ptr("CEL function " + fn)})
		}
	}
	return items
}

// splitPath splits "values . image" at its dots.
func splitPath(s string) []string {
	parts := strings.Split(s, ".")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// fieldSchema follows path through the properties of sch.
func fieldSchema(sch *engine.SchemaInfo, path []string) *engine.SchemaInfo {
	for _, name := range path {
		if sch == nil {
			return nil
		}
		var next *engine.SchemaInfo
		for _, p := range sch.Properties {
			if p.Name == name {
				next = p.Schema
				break
			}
		}
		sch = next
	}
	return sch
}

// kindWords says how a binding was bound.
var kindWords = map[string]string{"let": "$let name", "for": "$for variable", "schema": "$schema variable", "overlay": "overlay variable"}

// bindingDetail is a binding's kind and, for a $schema name, its type.
func bindingDetail(b *engine.Binding) *string {
	s := kindWords[b.Kind]
	if b.Schema != nil && b.Schema.Type != "" {
		s += ": " + b.Schema.Type
	}
	return &s
}

func schemaDetail(sch *engine.SchemaInfo) *string {
	if sch == nil || sch.Type == "" {
		return nil
	}
	return &sch.Type
}

// schemaDoc is a schema's description, or nil.
func schemaDoc(sch *engine.SchemaInfo) any {
	if sch == nil || sch.Description == "" {
		return nil
	}
	return sch.Description
}
