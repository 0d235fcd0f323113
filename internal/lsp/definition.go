package lsp

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// definition goes from a name to where it is bound ($let entry, $for,
// $schema entry) and from a literal $include path to its file.
func (s *Server) definition(_ *glsp.Context, p *protocol.DefinitionParams) (any, error) {
	d := s.docs.get(p.TextDocument.URI)
	syms := s.symbols(d)
	if syms == nil {
		return nil, nil
	}
	for _, inc := range syms.Includes {
		start := toLSP(d.text, inc.Pos.Line, inc.Pos.Column)
		r := tokenRange(d.text, inc.Pos)
		if p.Position.Line == start.Line && p.Position.Character >= start.Character && p.Position.Character <= r.End.Character {
			return []protocol.Location{{URI: pathURI(inc.File)}}, nil
		}
	}
	b, _, _, _ := s.lookup(d, p.Position)
	if b == nil {
		return nil, nil
	}
	start := toLSP(d.text, b.Pos.Line, b.Pos.Column)
	end := start
	end.Character += protocol.UInteger(utf16Len(b.Name))
	return []protocol.Location{{URI: d.uri, Range: protocol.Range{Start: start, End: end}}}, nil
}
