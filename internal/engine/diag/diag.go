// Package diag holds the engine's positioned errors: where in which
// template file a problem is (Pos), the error every render, compile and
// check reports (Error: FILE:LINE:COLUMN: path: message, with the
// expression and a caret, the document an overlay was editing and the
// $include chain that led there; reference §6: never a variable's
// value), and the file being rendered with how it was reached (Frame),
// which every error built while rendering is positioned in.
package diag

import (
	"fmt"
	"strings"
)

// Pos is a place in a template file.
type Pos struct {
	File   string // the path as the caller gave it, or "<inline>"
	Line   int    // 1-based
	Column int    // 1-based
}

func (p Pos) String() string {
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
}

// Error is every error the engine returns from a render. It never carries
// the value of a variable: only the template's own text.
type Error struct {
	Pos Pos
	// Path is the directive path of the offending node, e.g.
	// "items[0].$for.$do.metadata.name.$eval". Empty at a document root.
	Path string
	// Msg says what is wrong.
	Msg string
	// Expr is the CEL expression, when the error comes from one.
	Expr string
	// Offset is the byte offset in Expr that the caret points at, or -1.
	Offset int
	// Chain is the include chain, the innermost $include first: each entry
	// is the position of an $include directive that led here.
	Chain []Pos
	// Limit names the limit that was hit (e.g. "MaxIncludeDepth"), if any.
	Limit string
	// Editing names the document an overlay was editing (reference §8):
	// "document 3 (apps/Deployment/_/web)", or "".
	Editing string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Pos.String())
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Expr != "" {
		writeCaret(&b, e.Expr, e.Offset)
	}
	if e.Editing != "" {
		b.WriteString("\n  while editing ")
		b.WriteString(e.Editing)
	}
	for _, c := range e.Chain {
		b.WriteString("\n  included from ")
		b.WriteString(c.String())
	}
	return b.String()
}

// writeCaret writes the expression on its own line and, when offset is
// known, a caret under the offending column. Multi-line expressions show
// only the line that holds the offset.
func writeCaret(b *strings.Builder, expr string, offset int) {
	line, col := expr, -1
	if offset >= 0 && offset <= len(expr) {
		start := strings.LastIndexByte(expr[:offset], '\n') + 1
		end := strings.IndexByte(expr[offset:], '\n')
		if end < 0 {
			end = len(expr)
		} else {
			end += offset
		}
		line = expr[start:end]
		col = len([]rune(expr[start:offset]))
	} else if i := strings.IndexByte(expr, '\n'); i >= 0 {
		line = expr[:i] + " ..."
	}
	// Show at most a window of the line around the caret.
	const window = 60
	if r := []rune(line); len(r) > 2*window+20 {
		start := 0
		if col > window {
			start = col - window
		}
		end := min(len(r), start+2*window)
		prefix, suffix := "", ""
		if start > 0 {
			prefix = "..."
		}
		if end < len(r) {
			suffix = "..."
		}
		line = prefix + string(r[start:end]) + suffix
		if col >= 0 {
			col = col - start + len(prefix)
		}
	}
	b.WriteString("\n  | ")
	b.WriteString(line)
	if col >= 0 {
		b.WriteString("\n  | ")
		b.WriteString(strings.Repeat(".", col))
		b.WriteString("^")
	}
}

// Frame is the file being rendered and how it was reached.
type Frame struct {
	File  string   // the file as shown in errors
	Dir   string   // directory its $include paths resolve against
	Real  string   // cleaned path, for cycle detection ("" for inline)
	Chain []Pos    // $include positions that led here, innermost first
	Files []string // real paths of the files on the chain, outermost first
}
