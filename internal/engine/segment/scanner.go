package segment

import (
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/lex"
)

// Segment is one piece of a string scanned for ${{ }}.
type Segment struct {
	Text string // literal text, or the expression between ${{ and }}
	Expr bool   // text is a CEL expression
	Off  int    // byte offset of text in the scanned string
}

// Scan splits s into literal and ${{ }} segments.
//
// Rules (reference §3):
//   - A literal segment holds the text between expressions. Adjacent literal
//     pieces are merged, so two literal segments are never next to each
//     other. Empty literal pieces are left out, except that a string with no
//     ${{ at all (including "") gives exactly one literal segment.
//   - "$${{" stands for a literal "${{": the first "$" is consumed. The off
//     of a literal segment is where its first piece starts in s; when an
//     escape was applied, text is no longer a substring of s.
//   - Inside ${{ … }} the scanner understands CEL lexically: it skips string
//     literals (single, double and triple quoted, raw r'…', bytes b'…',
//     and the br/rb combinations) and counts braces. The expression ends at
//     the first "}}" met at brace depth 0. Its text is returned untrimmed and
//     off is the byte offset just after "${{".
//
// Errors carry an Offset into s: the "${{" of an unclosed or empty
// expression, or the start (prefix or quote) of an unterminated string
// literal. The scan is a single pass over bytes, so invalid UTF-8 is
// harmless, and a string without "${{" costs one strings.Index and one
// one-element slice.
func Scan(s string) ([]Segment, *celenv.Error) {
	j := strings.Index(s, "${{")
	if j < 0 {
		return []Segment{{Text: s}}, nil
	}

	var (
		segs     []Segment
		pos      int             // s[pos:] is not consumed yet
		litStart int             // offset of the pending literal
		esc      strings.Builder // pending literal text, once it has an escape
		escaped  bool
	)
	flush := func(end int) {
		switch {
		case escaped:
			esc.WriteString(s[pos:end])
			segs = append(segs, Segment{Text: esc.String(), Off: litStart})
			esc.Reset()
			escaped = false
		case end > pos:
			segs = append(segs, Segment{Text: s[pos:end], Off: pos})
		}
	}

	for j >= 0 {
		if j > 0 && s[j-1] == '$' {
			// "$${{": a literal "${{". The "$" is at j-1 >= pos, because
			// s[pos-1] is never '$' (pos follows "}}" or "${{").
			if !escaped {
				litStart = pos
				escaped = true
			}
			esc.WriteString(s[pos : j-1])
			esc.WriteString("${{")
			pos = j + 3
		} else {
			flush(j)
			start := j + 3
			end, err := scanExpr(s, start)
			if err != nil {
				if err.Offset < 0 {
					err.Offset = j
				}
				return nil, err
			}
			if lex.IsBlank(s[start:end]) {
				return nil, &celenv.Error{Msg: "empty expression", Offset: j}
			}
			segs = append(segs, Segment{Text: s[start:end], Expr: true, Off: start})
			pos = end + 2
		}
		if k := strings.Index(s[pos:], "${{"); k >= 0 {
			j = pos + k
		} else {
			j = -1
		}
	}
	flush(len(s))
	return segs, nil
}

// scanExpr scans the expression that starts at s[start] (just after "${{")
// and returns the index of the "}}" that closes it. An unclosed expression
// is an error with Offset -1, for the caller to fill in.
func scanExpr(s string, start int) (int, *celenv.Error) {
	depth := 0
	i := start
	for i < len(s) {
		c := s[i]
		switch {
		case c == '{':
			depth++
			i++
		case c == '}':
			if depth > 0 {
				depth--
			} else if i+1 < len(s) && s[i+1] == '}' {
				return i, nil
			}
			// A stray "}" at depth 0 is CEL's to report.
			i++
		case c == '\'' || c == '"':
			next, err := lex.SkipString(s, i, i, false)
			if err != nil {
				return -1, &celenv.Error{Msg: err.Msg, Offset: err.Offset}
			}
			i = next
		case lex.IsIdentByte(c):
			k := i + 1
			for k < len(s) && lex.IsIdentByte(s[k]) {
				k++
			}
			if k < len(s) && (s[k] == '\'' || s[k] == '"') {
				if raw, ok := lex.StringPrefix(s[i:k]); ok {
					next, err := lex.SkipString(s, i, k, raw)
					if err != nil {
						return -1, &celenv.Error{Msg: err.Msg, Offset: err.Offset}
					}
					i = next
					continue
				}
			}
			i = k
		default:
			i++
		}
	}
	msg := "unclosed ${{: no matching }}"
	if depth > 0 {
		msg = "unclosed ${{: a { in the expression has no matching }"
	}
	return -1, &celenv.Error{Msg: msg, Offset: -1}
}
