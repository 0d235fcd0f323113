package lsp

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

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
		r := tokenRange(d.text, at)
		if at == e.Pos {
			r = caretRange(d.text, e.Expr, e.Offset, r)
		}
		out = append(out, protocol.Diagnostic{Range: r, Severity: &sev, Source: ptr("celyaml"), Message: msg})
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

// caretRange narrows a problem of the expression expr to the character
// its caret (the byte offset off in expr) points at, and the rest of that
// word, when expr is written on the line as it is (not folded or escaped);
// otherwise it gives r.
func caretRange(text, expr string, off int, r protocol.Range) protocol.Range {
	if expr == "" || off < 0 || off > len(expr) || strings.Contains(expr, "\n") {
		return r
	}
	l := lineText(text, int(r.Start.Line))
	from := runeIndex(l, int(r.Start.Character))
	i := strings.Index(l[from:], expr)
	if i < 0 {
		return r
	}
	at := from + i + off
	end := at
	for end < len(l) && (l[end] == '_' || l[end] >= '0' && l[end] <= '9' || l[end] >= 'a' && l[end] <= 'z' || l[end] >= 'A' && l[end] <= 'Z') {
		end++
	}
	if end == at && at < len(l) {
		_, size := utf8.DecodeRuneInString(l[at:])
		end = at + size
	}
	line := r.Start.Line
	return protocol.Range{Start: protocol.Position{Line: line, Character: protocol.UInteger(utf16Len(l[:at]))},
		End: protocol.Position{Line: line, Character: protocol.UInteger(utf16Len(l[:end]))}}
}
