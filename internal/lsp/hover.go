package lsp

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// nameAt finds the name path under the cursor in an expression:
// for the cursor on image in values.image.tag it gives [values image]
// and the range of image.
func nameAt(lt string, idx int, line uint32) (path []string, r protocol.Range, ok bool) {
	isWord := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	start, end := idx, idx
	for start > 0 && isWord(lt[start-1]) {
		start--
	}
	for end < len(lt) && isWord(lt[end]) {
		end++
	}
	if start == end || lt[start] >= '0' && lt[start] <= '9' {
		return nil, r, false
	}
	path = []string{lt[start:end]}
	for i := start; ; {
		j := i
		for j > 0 && lt[j-1] == ' ' {
			j--
		}
		if j == 0 || lt[j-1] != '.' {
			break
		}
		j--
		for j > 0 && lt[j-1] == ' ' {
			j--
		}
		k := j
		for k > 0 && isWord(lt[k-1]) {
			k--
		}
		if k == j {
			return nil, r, false // a field of something that is no name: (x).y
		}
		path = append([]string{lt[k:j]}, path...)
		i = k
	}
	r = protocol.Range{Start: protocol.Position{Line: line, Character: protocol.UInteger(utf16Len(lt[:start]))},
		End: protocol.Position{Line: line, Character: protocol.UInteger(utf16Len(lt[:end]))}}
	return path, r, true
}

// lookup finds the binding of the name path under the cursor and the
// schema of the field it names.
func (s *Server) lookup(d *document, pos protocol.Position) (b *engine.Binding, path []string, sch *engine.SchemaInfo, r protocol.Range) {
	syms := s.symbols(d)
	if syms == nil {
		return nil, nil, nil, r
	}
	line, col, lt, idx := fromLSP(d.text, pos)
	if !inExpression(lt[:idx]) && !inExpression(lt[:min(len(lt), idx+1)]) && !syms.InExpression(line, col) {
		return nil, nil, nil, r
	}
	path, r, ok := nameAt(lt, idx, pos.Line)
	if !ok {
		return nil, nil, nil, r
	}
	b = syms.Lookup(line, col, path[0])
	if b == nil {
		return nil, nil, nil, r
	}
	if len(path) > 1 {
		if sch = fieldSchema(b.Schema, path[1:]); sch == nil {
			return nil, nil, nil, r
		}
	}
	return b, path, sch, r
}

func (s *Server) hover(_ *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	d := s.docs.get(p.TextDocument.URI)
	b, path, sch, r := s.lookup(d, p.Position)
	if b == nil {
		return nil, nil
	}
	var text strings.Builder
	if len(path) > 1 {
		fmt.Fprintf(&text, "`%s`", strings.Join(path, "."))
		if sch.Type != "" {
			fmt.Fprintf(&text, ": %s", sch.Type)
		}
		fmt.Fprintf(&text, "\n\nfield of $schema variable `%s`", path[0])
	} else {
		sch = b.Schema
		fmt.Fprintf(&text, "`%s`: %s", b.Name, kindWords[b.Kind])
		if sch != nil && sch.Type != "" {
			fmt.Fprintf(&text, " of type %s", sch.Type)
		}
	}
	fmt.Fprintf(&text, ", bound at %s:%d:%d", filepath.Base(b.Pos.File), b.Pos.Line, b.Pos.Column)
	if sch != nil && sch.Description != "" {
		text.WriteString("\n\n" + sch.Description)
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: text.String()}, Range: &r}, nil
}
