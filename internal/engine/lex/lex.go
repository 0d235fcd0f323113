package lex

// Error is a lexical error in an expression: what is wrong and the byte
// offset where the offending token starts.
type Error struct {
	Msg    string
	Offset int
}

func (e *Error) Error() string { return e.Msg }

// SkipString skips the CEL string literal whose token starts at tok (its
// prefix, if any) and whose opening quote is at q. It returns the index just
// after the closing quote. In a raw string a backslash does not escape.
func SkipString(s string, tok, q int, raw bool) (int, *Error) {
	quote := s[q]
	if q+2 < len(s) && s[q+1] == quote && s[q+2] == quote {
		// Triple-quoted: may span lines, ends at the first unescaped
		// triple quote.
		for i := q + 3; i < len(s); {
			c := s[i]
			if c == '\\' && !raw {
				i += 2
				continue
			}
			if c == quote && i+2 < len(s) && s[i+1] == quote && s[i+2] == quote {
				return i + 3, nil
			}
			i++
		}
		return -1, &Error{Msg: "unterminated string literal", Offset: tok}
	}
	for i := q + 1; i < len(s); {
		switch c := s[i]; {
		case c == quote:
			return i + 1, nil
		case c == '\n' || c == '\r':
			return -1, &Error{Msg: "unterminated string literal: a quoted string cannot span lines; use ''' or \"\"\"", Offset: tok}
		case c == '\\' && !raw:
			i += 2
		default:
			i++
		}
	}
	return -1, &Error{Msg: "unterminated string literal", Offset: tok}
}

// StringPrefix reports whether p is a CEL string literal prefix (r, b, and
// their two-letter combinations, any case), and whether it makes the
// literal raw.
func StringPrefix(p string) (raw, ok bool) {
	switch len(p) {
	case 1:
		switch p[0] {
		case 'r', 'R':
			return true, true
		case 'b', 'B':
			return false, true
		}
	case 2:
		a, b := p[0]|0x20, p[1]|0x20 // ASCII lower case
		if (a == 'b' && b == 'r') || (a == 'r' && b == 'b') {
			return true, true
		}
	}
	return false, false
}

func IsIdentByte(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

func IsBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
		default:
			return false
		}
	}
	return true
}

// IsIdent reports whether s can be a CEL variable name.
func IsIdent(s string) bool {
	if s == "" || len(s) > 256 {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (i > 0 && ch >= '0' && ch <= '9') {
			continue
		}
		return false
	}
	switch s {
	case "true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function", "if",
		"import", "let", "loop", "package", "namespace", "return", "var", "void", "while":
		return false
	}
	return true
}
