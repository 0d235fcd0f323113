package lsp

import (
	"context"
	"strings"
	"time"
	"unicode"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// checkTimeout bounds one check: the engine's limits bound its work, and
// this bounds the reads of included files.
const checkTimeout = 30 * time.Second

// diagnostics are what `celyaml check` without values finds in d: the
// same problems with the same words. A problem in a file d includes is
// shown at the $include of d that leads to it, its message starting with
// the file's position.
func (s *Server) diagnostics(d *document) []protocol.Diagnostic {
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	src := d.source()
	var after func([]engine.Document) error
	if s.opts.After != nil {
		after = func(docs []engine.Document) error { return s.opts.After(docs, src.Text) }
	}
	problems, _ := s.eng.CheckRender(ctx, src, nil, after)
	out := []protocol.Diagnostic{}
	seen := map[string]bool{}
	for _, p := range problems {
		e := p.Err
		msg := e.Msg
		if e.Path != "" {
			msg = e.Path + ": " + msg
		}
		msg = strings.ReplaceAll(msg, "\n", " ")
		at := e.Pos
		if at.File != d.fileName() {
			at = engine.Pos{}
			for _, c := range e.Chain {
				if c.File == d.fileName() {
					at = c
					break
				}
			}
			if e.Pos.File != "" {
				msg = e.Pos.String() + ": " + msg
			}
		}
		sev := protocol.DiagnosticSeverityError
		if p.Warning {
			sev = protocol.DiagnosticSeverityWarning
		}
		key := at.String() + "\x00" + msg
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, protocol.Diagnostic{Range: tokenRange(d.text, at), Severity: &sev, Source: ptr("celyaml"), Message: msg})
	}
	return out
}

// tokenRange is the range of the word that starts at the engine's pos: up
// to the next space, at least one character.
func tokenRange(text string, pos engine.Pos) protocol.Range {
	start := toLSP(text, pos.Line, pos.Column)
	l := lineText(text, int(start.Line))
	i := runeIndex(l, int(start.Character))
	rest := l[i:]
	n := strings.IndexFunc(rest, unicode.IsSpace)
	if n < 0 {
		n = len(rest)
	}
	if n == 0 && len(rest) > 0 {
		n = len(string([]rune(rest)[0]))
	}
	end := start
	end.Character += protocol.UInteger(utf16Len(rest[:n]))
	return protocol.Range{Start: start, End: end}
}
