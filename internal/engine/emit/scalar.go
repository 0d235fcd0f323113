package emit

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// Writing a string in the style quote.go chose for it: plain, single-quoted,
// double-quoted or a literal block, and a !!binary value's base64 lines.

// scalar writes an analysed string in style st. space says a separating
// space is needed first; indent is the indentation of block scalar lines.
func (e *yamlEmitter) scalar(si *scalarInfo, st uint8, space bool, indent int) {
	if si.binary {
		if space {
			e.buf = append(e.buf, ' ')
		}
		e.buf = append(e.buf, "!!binary"...)
		space = true
	}
	if space {
		e.buf = append(e.buf, ' ')
	}
	s := si.text
	switch st {
	case stylePlain:
		e.buf = append(e.buf, s...)
	case styleSingle:
		e.singleQuoted(s, indent)
	case styleDouble:
		e.buf = appendDoubleQuoted(e.buf, s)
	case styleLiteral:
		e.literal(s, indent)
		return
	}
	e.lineStart = false
}

func (e *yamlEmitter) singleQuoted(s string, indent int) {
	e.buf = append(e.buf, '\'')
	breaks := false
	for i := 0; i < len(s); {
		if s[i] == ' ' {
			e.buf = append(e.buf, ' ')
			i++
			continue
		}
		if w := breakWidth(s, i); w > 0 {
			if !breaks && s[i] == '\n' {
				e.buf = append(e.buf, '\n')
			}
			e.buf = append(e.buf, s[i:i+w]...)
			breaks = true
			i += w
			continue
		}
		if breaks {
			// The analysis rules out spaces next to breaks here, so the
			// output is at the start of a line.
			e.pad(indent)
			breaks = false
		}
		if s[i] == '\'' {
			e.buf = append(e.buf, '\'')
		}
		e.buf = append(e.buf, s[i])
		i++
	}
	e.buf = append(e.buf, '\'')
}

const yamlHexDigits = "0123456789ABCDEF"

// appendDoubleQuoted writes s double-quoted with yaml.v3's escapes.
func appendDoubleQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	bom := strings.HasPrefix(s, "\uFEFF") // yaml.v3 then escapes everything
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if !bom && c >= 0x20 && c < 0x7F && c != '"' && c != '\\' {
			i++
			continue
		}
		w := 1
		if c >= 0x80 {
			w = yamlRuneWidth(c)
		}
		if !bom && c >= 0x80 && yamlPrintable(s, i) && breakWidth(s, i) == 0 {
			i += w
			continue
		}
		dst = append(dst, s[start:i]...)
		r, _ := utf8.DecodeRuneInString(s[i:])
		i += w
		start = i
		dst = append(dst, '\\')
		switch r {
		case 0x00:
			dst = append(dst, '0')
		case 0x07:
			dst = append(dst, 'a')
		case 0x08:
			dst = append(dst, 'b')
		case 0x09:
			dst = append(dst, 't')
		case 0x0A:
			dst = append(dst, 'n')
		case 0x0B:
			dst = append(dst, 'v')
		case 0x0C:
			dst = append(dst, 'f')
		case 0x0D:
			dst = append(dst, 'r')
		case 0x1B:
			dst = append(dst, 'e')
		case '"':
			dst = append(dst, '"')
		case '\\':
			dst = append(dst, '\\')
		case 0x85:
			dst = append(dst, 'N')
		case 0xA0:
			dst = append(dst, '_')
		case 0x2028:
			dst = append(dst, 'L')
		case 0x2029:
			dst = append(dst, 'P')
		default:
			n := 8
			switch {
			case r <= 0xFF:
				dst, n = append(dst, 'x'), 2
			case r <= 0xFFFF:
				dst, n = append(dst, 'u'), 4
			default:
				dst = append(dst, 'U')
			}
			for k := (n - 1) * 4; k >= 0; k -= 4 {
				dst = append(dst, yamlHexDigits[(r>>uint(k))&0xF])
			}
		}
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// literal writes s as a literal block scalar whose lines are indented by
// indent spaces.
func (e *yamlEmitter) literal(s string, indent int) {
	e.buf = append(e.buf, '|')
	if s[0] == ' ' || breakWidth(s, 0) > 0 {
		e.buf = append(e.buf, '2') // yaml.v3 writes its best_indent
	}
	// Chomping: strip without a final break, keep with two or more.
	last := lastRuneStart(s, len(s))
	switch {
	case breakWidth(s, last) == 0:
		e.buf = append(e.buf, '-')
	case last == 0:
		e.buf = append(e.buf, '+')
	case breakWidth(s, lastRuneStart(s, last)) > 0:
		e.buf = append(e.buf, '+')
	}
	e.buf = append(e.buf, '\n')
	breaks := true
	for i := 0; i < len(s); {
		if w := breakWidth(s, i); w > 0 {
			e.buf = append(e.buf, s[i:i+w]...)
			breaks = true
			i += w
			continue
		}
		if breaks {
			e.pad(indent)
			breaks = false
		}
		j := i + 1
		for j < len(s) && breakWidth(s, j) == 0 {
			j++
		}
		e.buf = append(e.buf, s[i:j]...)
		i = j
	}
	e.lineStart = breaks
}

// encodeBase64Lines is yaml.v3's encodeBase64: base64 in lines of 70
// characters, each ending in a newline when there is more than one.
func encodeBase64Lines(s string) string {
	const lineLen = 70
	enc := base64.StdEncoding.EncodeToString([]byte(s))
	if len(enc) < lineLen {
		return enc
	}
	var b strings.Builder
	b.Grow(len(enc) + len(enc)/lineLen + 1)
	for i := 0; i < len(enc); i += lineLen {
		b.WriteString(enc[i:min(i+lineLen, len(enc))])
		b.WriteByte('\n')
	}
	return b.String()
}
