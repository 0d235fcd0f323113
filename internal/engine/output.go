package engine

// The output emitters: YAML and JSON text for engine values.
//
// The YAML emitter is written by hand for the few kinds an engine value can
// hold. Its output is byte for byte what go.yaml.in/yaml/v3's Encoder with
// SetIndent(2) writes for the equivalent yaml.Node tree (strings tagged
// !!str, numbers !!int/!!float, booleans !!bool, null !!null), with these
// deliberate differences:
//
//   - Strings that a YAML 1.1 reader, or a YAML 1.2 reader that is stricter
//     about number ranges than yaml.v3, would take for another type are
//     double-quoted even where yaml.v3 writes them plain (see
//     needsExtraQuotes): "yes", "on", "n", "0777"-style 1.1 octals,
//     sexagesimal "1:20", 1.1 floats such as "1._5", 1.1 timestamps,
//     out-of-range numbers such as "1e400", "=" and "<<".
//   - A multi-line string that starts with a tab is double-quoted: yaml.v3
//     writes it as a literal block that yaml.v3 itself cannot read back.
//
// Everything else follows yaml.v3, quirks included:
//
//   - Block style; two spaces per level; a sequence inside a mapping is
//     indented ("key:\n  - a"); a mapping inside a sequence starts on the
//     dash line ("- key: v").
//   - Empty collections are written in flow style: {} and [].
//   - Strings with a line break are literal blocks (|, |-, |+, with the
//     indentation indicator 2 when they start with a space or a break)
//     unless a literal cannot hold them, then double-quoted.
//   - Strings that plain style cannot hold are single-quoted when possible,
//     else double-quoted. Characters outside the printable set of YAML
//     (C0/C1 controls, DEL, U+FEFF, U+FFFE/U+FFFF and, as in yaml.v3, every
//     character beyond the Basic Multilingual Plane) are escaped, which
//     forces double quotes.
//   - No line wrapping (yaml.v3 sets an unlimited line width).
//   - A key that spans lines or is longer than 128 bytes is written as an
//     explicit "? key" entry.
//   - A string that is not valid UTF-8 is written, as yaml.v3 does, as
//     "!!binary" followed by its bytes in base64 (in lines of 70 characters
//     when longer). yaml.v3 and other YAML readers decode that back to the
//     same bytes.
//
// Numbers: int64 in decimal. A float64 that is whole and within the int64
// range is written as an integer (3.0 as 3, -0.0 as 0), so Kubernetes
// integer fields accept it; other floats in strconv 'g' form with the
// shortest precision that round-trips (1.5, 1e+300); NaN and infinities as
// .nan, .inf and -.inf.
//
// The emitters append to the caller's buffer and never check a size limit;
// the renderer checks MaxOutputBytes on the result.

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

var (
	errOutputUnknown = errors.New("a value is not known yet, so it cannot be written out")
	errJSONNonFinite = errors.New("JSON cannot hold NaN or an infinite number")
)

func errOutputType(v Value) error {
	return fmt.Errorf("cannot write a value of Go type %T", v)
}

// AppendYAML appends v as one YAML document in block style, ending in a
// newline, without a leading "---". On error it returns dst unchanged.
func AppendYAML(dst []byte, v Value) ([]byte, error) {
	e := yamlEmitter{buf: dst}
	if err := e.node(v, atRoot, 0); err != nil {
		return dst, err
	}
	if !e.lineStart {
		e.buf = append(e.buf, '\n')
	}
	return e.buf, nil
}

// EncodeYAMLStream writes the documents separated by "---" lines. The first
// document has no leading "---"; no documents give empty output.
func EncodeYAMLStream(docs []Value) ([]byte, error) {
	return appendYAMLStream(nil, docs, nil)
}

// EncodeYAMLStreamSpans is EncodeYAMLStream that also says where each
// document's own text is: spans[i] is the start and end of document i in
// the stream, without its "---" line. Callers that need both the stream
// and each document write the text once and slice it.
func EncodeYAMLStreamSpans(docs []Value) (stream []byte, spans [][2]int, err error) {
	spans = make([][2]int, len(docs))
	stream, err = appendYAMLStream(nil, docs, spans)
	return stream, spans, err
}

// appendYAMLStream appends the stream of docs to out, recording each
// document's span when spans is not nil.
func appendYAMLStream(out []byte, docs []Value, spans [][2]int) ([]byte, error) {
	var err error
	for i, d := range docs {
		if i > 0 {
			out = append(out, "---\n"...)
		}
		start := len(out)
		if out, err = AppendYAML(out, d); err != nil {
			return nil, err
		}
		if spans != nil {
			spans[i] = [2]int{start, len(out)}
		}
	}
	return out, nil
}

// Where a node starts, which decides the separator before it.
const (
	atRoot         = iota // at the start of a line, at the document root
	afterKey              // right after "key:"
	afterIndicator        // right after a "-", "?" or ":" indicator
)

// Scalar styles, as yaml.v3 names them.
const (
	stylePlain = iota
	styleSingle
	styleDouble
	styleLiteral
)

type yamlEmitter struct {
	buf []byte
	// lineStart is set when the last thing written was a block scalar that
	// ended with a line break, so the output is at the start of a line.
	lineStart bool
}

// yamlRoom is the free space the emitter makes sure of before each node.
const yamlRoom = 512

// grow doubles the buffer. append alone would grow a large buffer by about
// a quarter at a time, copying a large output several times over; doubling
// copies it about once in all.
func (e *yamlEmitter) grow() {
	b := make([]byte, len(e.buf), 2*cap(e.buf)+yamlRoom)
	copy(b, e.buf)
	e.buf = b
}

const yamlSpaces = "                                                                "

func (e *yamlEmitter) pad(n int) {
	for n > len(yamlSpaces) {
		e.buf = append(e.buf, yamlSpaces...)
		n -= len(yamlSpaces)
	}
	e.buf = append(e.buf, yamlSpaces[:n]...)
}

// newLine moves to column indent of a fresh line.
func (e *yamlEmitter) newLine(indent int) {
	if !e.lineStart {
		e.buf = append(e.buf, '\n')
	}
	e.pad(indent)
	e.lineStart = false
}

// node writes v. indent is the column of the enclosing collection's keys or
// dashes (0 at the root).
func (e *yamlEmitter) node(v Value, where, indent int) error {
	if cap(e.buf)-len(e.buf) < yamlRoom {
		e.grow()
	}
	switch x := v.(type) {
	case nil:
		e.word("null", where)
	case bool:
		if x {
			e.word("true", where)
		} else {
			e.word("false", where)
		}
	case int64:
		if where != atRoot {
			e.buf = append(e.buf, ' ')
		}
		e.buf = strconv.AppendInt(e.buf, x, 10)
	case float64:
		if where != atRoot {
			e.buf = append(e.buf, ' ')
		}
		e.buf = appendYAMLFloat(e.buf, x)
	case string:
		si := analyzeString(x)
		e.scalar(&si, si.style(false), where != atRoot, indent+2)
	case *Map:
		n := x.Len()
		if n == 0 {
			e.word("{}", where)
			return nil
		}
		ci := indent + 2
		if where == atRoot {
			ci = 0
		}
		for i := 0; i < n; i++ {
			k, val := x.At(i)
			e.itemStart(i == 0, where, ci)
			si := analyzeString(k)
			if si.simpleKey() {
				e.scalar(&si, si.style(true), false, ci+2)
				e.buf = append(e.buf, ':')
				if err := e.node(val, afterKey, ci); err != nil {
					return err
				}
				continue
			}
			e.buf = append(e.buf, '?')
			e.scalar(&si, si.style(false), true, ci+2)
			e.newLine(ci)
			e.buf = append(e.buf, ':')
			if err := e.node(val, afterIndicator, ci); err != nil {
				return err
			}
		}
	case []Value:
		if len(x) == 0 {
			e.word("[]", where)
			return nil
		}
		ci := indent + 2
		if where == atRoot {
			ci = 0
		}
		for i, item := range x {
			e.itemStart(i == 0, where, ci)
			e.buf = append(e.buf, '-')
			if err := e.node(item, afterIndicator, ci); err != nil {
				return err
			}
		}
	case Unknown:
		return errOutputUnknown
	default:
		return errOutputType(v)
	}
	return nil
}

// word writes a plain scalar that needs no analysis.
func (e *yamlEmitter) word(s string, where int) {
	if where != atRoot {
		e.buf = append(e.buf, ' ')
	}
	e.buf = append(e.buf, s...)
}

// itemStart moves to where the next key or dash of a collection at column
// ci goes.
func (e *yamlEmitter) itemStart(first bool, where, ci int) {
	if !first {
		e.newLine(ci)
		return
	}
	switch where {
	case afterKey:
		e.buf = append(e.buf, '\n')
		e.pad(ci)
	case afterIndicator:
		// The indicator sits at column ci-2; one space reaches ci.
		e.buf = append(e.buf, ' ')
	}
	e.lineStart = false
}

// appendYAMLFloat writes f as an integer when it is whole and fits int64,
// else in yaml.v3's float form.
func appendYAMLFloat(dst []byte, f float64) []byte {
	if i, ok := outWholeInt64(f); ok {
		return strconv.AppendInt(dst, i, 10)
	}
	switch {
	case math.IsNaN(f):
		return append(dst, ".nan"...)
	case math.IsInf(f, 1):
		return append(dst, ".inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-.inf"...)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, 64)
}

// outWholeInt64 reports whether f is a whole number in the int64 range.
func outWholeInt64(f float64) (int64, bool) {
	if f >= -9223372036854775808.0 && f < 9223372036854775808.0 && f == math.Trunc(f) {
		return int64(f), true
	}
	return 0, false
}

// Analysis flags of a scalar, as yaml.v3's analyze_scalar computes them for
// block context (flow context never occurs in our output).
const (
	fMultiline = 1 << iota
	fPlain
	fSingle
	fBlock
)

type scalarInfo struct {
	text      string // what is written: the string, or its base64 form
	binary    bool   // written with the !!binary tag
	requested uint8  // stylePlain, styleDouble or styleLiteral
	flags     uint8
}

// analyzeString decides how s is written, up to the context.
func analyzeString(s string) scalarInfo {
	si := scalarInfo{text: s, requested: stylePlain}
	if flags, ok := analyzeSimpleASCII(s); ok {
		si.flags = flags
		if resolvesToNonString(s) || needsExtraQuotes(s) {
			si.requested = styleDouble
		}
		return si
	}
	if !utf8.ValidString(s) {
		si.binary = true
		si.text = encodeBase64Lines(s)
		if strings.IndexByte(si.text, '\n') >= 0 {
			si.requested = styleLiteral
		}
	} else if strings.IndexByte(s, '\n') >= 0 {
		si.requested = styleLiteral
		if s[0] == '\t' {
			// yaml.v3 cannot read back a literal block whose first line
			// starts with a tab.
			si.requested = styleDouble
		}
	} else if resolvesToNonString(s) || needsExtraQuotes(s) {
		si.requested = styleDouble
	}
	si.flags = analyzeScalar(si.text)
	return si
}

// simpleKey reports whether yaml.v3 writes the key as "key: value" rather
// than as an explicit "? key" entry.
func (si *scalarInfo) simpleKey() bool {
	if si.flags&fMultiline != 0 {
		return false
	}
	n := len(si.text)
	if si.binary {
		n += len("!!binary")
	}
	return n <= 128
}

// style picks the final style the way yaml_emitter_select_scalar_style
// does.
func (si *scalarInfo) style(simpleKey bool) uint8 {
	st := si.requested
	if simpleKey && si.flags&fMultiline != 0 {
		st = styleDouble
	}
	if st == stylePlain {
		if si.flags&fPlain == 0 || len(si.text) == 0 && simpleKey {
			st = styleSingle
		}
	}
	if st == styleSingle && si.flags&fSingle == 0 {
		st = styleDouble
	}
	if st == styleLiteral && (si.flags&fBlock == 0 || simpleKey) {
		st = styleDouble
	}
	return st
}

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

func lastRuneStart(s string, end int) int {
	i := end - 1
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return i
}

// yamlRuneWidth is the length of the UTF-8 sequence that starts with c.
func yamlRuneWidth(c byte) int {
	switch {
	case c < 0x80:
		return 1
	case c&0xE0 == 0xC0:
		return 2
	case c&0xF0 == 0xE0:
		return 3
	default:
		return 4
	}
}

// breakWidth is the length of the line break at s[i] (LF, CR, NEL, LS or
// PS, which yaml.v3 all treats as breaks), or 0.
func breakWidth(s string, i int) int {
	switch s[i] {
	case '\n', '\r':
		return 1
	case 0xC2:
		if i+1 < len(s) && s[i+1] == 0x85 {
			return 2
		}
	case 0xE2:
		if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
			return 3
		}
	}
	return 0
}

// yamlPrintable is yaml.v3's is_printable for valid UTF-8: LF, printable
// ASCII and the Basic Multilingual Plane above U+009F except surrogates,
// U+FEFF, U+FFFE and U+FFFF.
func yamlPrintable(s string, i int) bool {
	c := s[i]
	switch {
	case c == 0x0A || c >= 0x20 && c <= 0x7E:
		return true
	case c == 0xC2:
		return s[i+1] >= 0xA0
	case c > 0xC2 && c < 0xED:
		return true
	case c == 0xED:
		return s[i+1] < 0xA0
	case c == 0xEE:
		return true
	case c == 0xEF:
		return !(s[i+1] == 0xBB && s[i+2] == 0xBF) && !(s[i+1] == 0xBF && (s[i+2] == 0xBE || s[i+2] == 0xBF))
	}
	return false
}

// asciiPlain holds the printable ASCII characters that never affect the
// analysis away from the first position: all but space, ':' and '#'.
var asciiPlain = func() (t [256]bool) {
	for c := 0x21; c <= 0x7E; c++ {
		t[c] = c != ':' && c != '#'
	}
	return t
}()

// analyzeSimpleASCII is analyzeScalar's fast path for the common case: a
// non-empty string of printable ASCII without leading or trailing space,
// without ": ", " #" or a trailing ':'. It reports false for anything else.
func analyzeSimpleASCII(s string) (uint8, bool) {
	n := len(s)
	if n == 0 {
		return 0, false
	}
	for i := 0; i < n; i++ {
		c := s[i]
		if asciiPlain[c] {
			continue
		}
		switch c {
		case ' ':
			if i > 0 && i < n-1 {
				continue
			}
		case ':':
			if i+1 < n && s[i+1] != ' ' && s[i+1] != '\t' {
				continue
			}
		case '#':
			if i > 0 && s[i-1] != ' ' {
				continue
			}
		}
		return 0, false
	}
	flags := uint8(fPlain | fSingle | fBlock)
	switch s[0] {
	case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		flags &^= fPlain
	case '?', ':', '-':
		if n == 1 || s[1] == ' ' {
			flags &^= fPlain
		}
	}
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		flags &^= fPlain
	}
	return flags, true
}

// analyzeScalar is yaml_emitter_analyze_scalar for block context. s must be
// valid UTF-8.
func analyzeScalar(s string) uint8 {
	if len(s) == 0 {
		return fPlain | fSingle
	}
	var blockIndicators, lineBreaks, special, tabs bool
	var leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		blockIndicators = true
	}
	precededByWhitespace := true
	previousSpace, previousBreak := false, false
	for i, w := 0, 0; i < len(s); i += w {
		c := s[i]
		w = yamlRuneWidth(c)
		followedByWhitespace := i+w >= len(s) || s[i+w] == ' ' || s[i+w] == '\t'
		if i == 0 {
			switch c {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				blockIndicators = true
			case '?', ':', '-':
				if followedByWhitespace {
					blockIndicators = true
				}
			}
		} else {
			switch c {
			case ':':
				if followedByWhitespace {
					blockIndicators = true
				}
			case '#':
				if precededByWhitespace {
					blockIndicators = true
				}
			}
		}
		if c == '\t' {
			tabs = true
		} else if !yamlPrintable(s, i) {
			special = true
		}
		bw := 0
		if c == ' ' {
			if i == 0 {
				leadingSpace = true
			}
			if i+1 == len(s) {
				trailingSpace = true
			}
			if previousBreak {
				breakSpace = true
			}
			previousSpace, previousBreak = true, false
		} else if bw = breakWidth(s, i); bw > 0 {
			lineBreaks = true
			if i == 0 {
				leadingBreak = true
			}
			if i+w == len(s) {
				trailingBreak = true
			}
			if previousSpace {
				spaceBreak = true
			}
			previousSpace, previousBreak = false, true
		} else {
			previousSpace, previousBreak = false, false
		}
		precededByWhitespace = c == ' ' || c == '\t' || c == 0 || bw > 0
	}
	flags := uint8(fPlain | fSingle | fBlock)
	if lineBreaks {
		flags |= fMultiline
	}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks || blockIndicators {
		flags &^= fPlain
	}
	if trailingSpace {
		flags &^= fBlock
	}
	if breakSpace || spaceBreak || tabs || special {
		flags &^= fPlain | fSingle
	}
	if spaceBreak || special {
		flags &^= fBlock
	}
	return flags
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

// resolvesToNonString reports whether yaml.v3 reads s, written plain, as
// something other than a string: a port of resolve("", s) in yaml.v3's
// resolve.go.
func resolvesToNonString(s string) bool {
	if s == "" {
		return true
	}
	switch c := s[0]; {
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		switch s {
		case "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
			return true
		}
		return resolvesToNumberOrTime(s)
	case c == '.':
		switch s {
		case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF":
			return true
		}
		if len(s) > 1 && outIsDigit(s[1]) {
			_, err := strconv.ParseFloat(s, 64)
			return err == nil
		}
	case c == '~' || c == 't' || c == 'T' || c == 'f' || c == 'F' || c == 'n' || c == 'N':
		switch s {
		case "~", "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
			return true
		}
	}
	return false
}

func outIsDigit(c byte) bool { return c >= '0' && c <= '9' }

// resolvesToNumberOrTime is resolve's branch for strings that start with a
// digit or a sign.
func resolvesToNumberOrTime(s string) bool {
	if isYAMLv3Timestamp(s) {
		return true
	}
	plain := s
	if strings.IndexByte(s, '_') >= 0 {
		plain = strings.ReplaceAll(s, "_", "")
	}
	if base0IntSyntax(plain) {
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return true
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return true
		}
	}
	if yamlFloatSyntax(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return true
		}
	}
	var digits string
	base := 0
	neg := false
	switch {
	case strings.HasPrefix(plain, "0b"):
		digits, base = plain[2:], 2
	case strings.HasPrefix(plain, "-0b"):
		digits, base, neg = plain[3:], 2, true
	case strings.HasPrefix(plain, "0o"):
		digits, base = plain[2:], 8
	case strings.HasPrefix(plain, "-0o"):
		digits, base, neg = plain[3:], 8, true
	default:
		return false
	}
	if neg {
		_, err := strconv.ParseInt("-"+digits, base, 64)
		return err == nil
	}
	if _, err := strconv.ParseInt(digits, base, 64); err == nil {
		return true
	}
	_, err := strconv.ParseUint(digits, base, 64)
	return err == nil
}

// isYAMLv3Timestamp is yaml.v3's parseTimestamp.
func isYAMLv3Timestamp(s string) bool {
	i := 0
	for i < len(s) && outIsDigit(s[i]) {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, layout := range [...]string{
		"2006-1-2T15:4:5.999999999Z07:00",
		"2006-1-2t15:4:5.999999999Z07:00",
		"2006-1-2 15:4:5.999999999",
		"2006-1-2",
	} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// base0IntSyntax reports whether s has the syntax strconv.ParseInt(s, 0, 64)
// accepts, leaving the range aside. s holds no underscores.
func base0IntSyntax(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	base := byte(10)
	if s[0] == '0' {
		switch {
		case len(s) >= 3 && (s[1] == 'b' || s[1] == 'B'):
			base, s = 2, s[2:]
		case len(s) >= 3 && (s[1] == 'o' || s[1] == 'O'):
			base, s = 8, s[2:]
		case len(s) >= 3 && (s[1] == 'x' || s[1] == 'X'):
			base, s = 16, s[2:]
		default:
			base, s = 8, s[1:]
		}
	}
	for i := 0; i < len(s); i++ {
		var d byte
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'z':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'Z':
			d = c - 'A' + 10
		default:
			return false
		}
		if d >= base {
			return false
		}
	}
	return true
}

// yamlFloatSyntax matches yaml.v3's yamlStyleFloat, which is YAML 1.2's
// core schema float without the special values:
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
func yamlFloatSyntax(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		j := outSkipDigits(s, i)
		if j == i {
			return false
		}
		i = j
	} else {
		j := outSkipDigits(s, i)
		if j == i {
			return false
		}
		i = j
		if i < len(s) && s[i] == '.' {
			i = outSkipDigits(s, i+1)
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := outSkipDigits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

func outSkipDigits(s string, i int) int {
	for i < len(s) && outIsDigit(s[i]) {
		i++
	}
	return i
}

// outSkipClass skips bytes of s from i on that ok accepts.
func outSkipClass(s string, i int, ok func(byte) bool) int {
	for i < len(s) && ok(s[i]) {
		i++
	}
	return i
}

func isDigitOrUnderscore(c byte) bool { return outIsDigit(c) || c == '_' }

// needsExtraQuotes reports whether s, which yaml.v3 would write plain, is
// still read as another type by a YAML 1.1 reader (PyYAML's resolver, the
// 1.1 type repository) or by a YAML 1.2 reader with no number range limit.
func needsExtraQuotes(s string) bool {
	if s == "" {
		return false // yaml.v3 quotes it already
	}
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
		"on", "On", "ON", "off", "Off", "OFF", // YAML 1.1 booleans
		"=", "<<": // YAML 1.1 value and merge keys
		return true
	}
	c := s[0]
	if !(c == '+' || c == '-' || c == '.' || outIsDigit(c)) {
		return false
	}
	if isBase60(s) || isYAML11Int(s) || isYAML11Float(s) || isYAML11Timestamp(s) {
		return true
	}
	// Numbers of any magnitude, with or without the underscores that
	// yaml.v2/v3 drop before parsing.
	if yamlFloatSyntax(s) || base0IntSyntax(s) {
		return true
	}
	if strings.IndexByte(s, '_') >= 0 {
		plain := strings.ReplaceAll(s, "_", "")
		return yamlFloatSyntax(plain) || base0IntSyntax(plain)
	}
	return false
}

// isBase60 matches yaml.v3's base60float (YAML 1.1 sexagesimal numbers):
// ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
func isBase60(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i >= len(s) || !outIsDigit(s[i]) {
		return false
	}
	i = outSkipClass(s, i+1, isDigitOrUnderscore)
	groups := 0
	for i < len(s) && s[i] == ':' {
		i++
		if i >= len(s) || !outIsDigit(s[i]) {
			return false
		}
		if s[i] <= '5' && i+1 < len(s) && outIsDigit(s[i+1]) {
			i += 2
		} else {
			i++
		}
		groups++
	}
	if groups == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i = outSkipClass(s, i+1, isDigitOrUnderscore)
	}
	return i == len(s)
}

// isYAML11Int matches the YAML 1.1 int forms other than sexagesimal:
// [-+]?0b[0-1_]+ | [-+]?0[0-7_]+ | [-+]?(0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+
func isYAML11Int(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" || !outIsDigit(s[0]) {
		return false
	}
	var ok func(byte) bool
	switch {
	case strings.HasPrefix(s, "0b"):
		s, ok = s[2:], func(c byte) bool { return c == '0' || c == '1' || c == '_' }
	case strings.HasPrefix(s, "0x"):
		s, ok = s[2:], func(c byte) bool {
			return isDigitOrUnderscore(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
		}
	case s == "0":
		return true
	case s[0] == '0':
		s, ok = s[1:], func(c byte) bool { return c >= '0' && c <= '7' || c == '_' }
	default:
		s, ok = s[1:], isDigitOrUnderscore
		if s == "" {
			return true
		}
	}
	return s != "" && outSkipClass(s, 0, ok) == len(s)
}

// isYAML11Float matches PyYAML's YAML 1.1 float forms (sexagesimal and the
// special values are matched elsewhere), a sign allowed on both:
// [-+]?[0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)? | [-+]?\.[0-9_]+([eE][-+][0-9]+)?
func isYAML11Float(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		j := outSkipClass(s, i+1, isDigitOrUnderscore)
		if j == i+1 {
			return false
		}
		i = j
	} else {
		if i >= len(s) || !outIsDigit(s[i]) {
			return false
		}
		i = outSkipClass(s, i+1, isDigitOrUnderscore)
		if i >= len(s) || s[i] != '.' {
			return false
		}
		i = outSkipClass(s, i+1, isDigitOrUnderscore)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		if i+1 >= len(s) || s[i+1] != '+' && s[i+1] != '-' {
			return false
		}
		j := outSkipDigits(s, i+2)
		if j == i+2 {
			return false
		}
		i = j
	}
	return i == len(s)
}

// isYAML11Timestamp matches the YAML 1.1 timestamp forms (PyYAML's regular
// expression, with a one-digit month and day allowed in the date-only form
// too, as yaml.v3 reads it):
// [0-9]{4}-[0-9]{1,2}-[0-9]{1,2}
// ( ([Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(\.[0-9]*)?([ \t]*(Z|[-+][0-9]{1,2}(:[0-9]{2})?))? )?
func isYAML11Timestamp(s string) bool {
	digits := func(i, lo, hi int) int { // i after lo..hi digits, or -1
		n := 0
		for i+n < len(s) && n < hi && outIsDigit(s[i+n]) {
			n++
		}
		if n < lo {
			return -1
		}
		return i + n
	}
	lit := func(i int, c byte) int {
		if i >= 0 && i < len(s) && s[i] == c {
			return i + 1
		}
		return -1
	}
	i := digits(0, 4, 4)
	if i < 0 {
		return false
	}
	if i = lit(i, '-'); i < 0 {
		return false
	}
	if i = digits(i, 1, 2); i < 0 {
		return false
	}
	if i = lit(i, '-'); i < 0 {
		return false
	}
	if i = digits(i, 1, 2); i < 0 {
		return false
	}
	if i == len(s) {
		return true
	}
	switch s[i] {
	case 'T', 't':
		i++
	case ' ', '\t':
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	default:
		return false
	}
	if i = digits(i, 1, 2); i < 0 {
		return false
	}
	for range 2 {
		if i = lit(i, ':'); i < 0 {
			return false
		}
		if i = digits(i, 2, 2); i < 0 {
			return false
		}
	}
	if i < len(s) && s[i] == '.' {
		i = outSkipDigits(s, i+1)
	}
	if i == len(s) {
		return true
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i < len(s) && s[i] == 'Z' {
		return i+1 == len(s)
	}
	if i >= len(s) || s[i] != '+' && s[i] != '-' {
		return false
	}
	if i = digits(i+1, 1, 2); i < 0 {
		return false
	}
	if i < len(s) && s[i] == ':' {
		if i = digits(i+1, 2, 2); i < 0 {
			return false
		}
	}
	return i == len(s)
}

// AppendJSON appends v as compact JSON. With sortKeys, map keys are sorted
// in byte order; otherwise they keep their order. Strings are escaped as
// encoding/json does without HTML escaping (invalid UTF-8 becomes U+FFFD);
// whole doubles in the int64 range are written as integers, other doubles as
// encoding/json writes them. NaN and infinities are an error. On error it
// returns dst unchanged.
func AppendJSON(dst []byte, v Value, sortKeys bool) ([]byte, error) {
	out, err := appendJSON(dst, v, sortKeys)
	if err != nil {
		return dst, err
	}
	return out, nil
}

func appendJSON(dst []byte, v Value, sortKeys bool) ([]byte, error) {
	var err error
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		if x {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case int64:
		return strconv.AppendInt(dst, x, 10), nil
	case float64:
		return outJSONFloat(dst, x)
	case string:
		return outJSONString(dst, x), nil
	case []Value:
		dst = append(dst, '[')
		for i, item := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendJSON(dst, item, sortKeys); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case *Map:
		n := x.Len()
		var order []int
		if sortKeys && !outKeysSorted(x) {
			order = make([]int, n)
			for i := range order {
				order[i] = i
			}
			keys := x.Keys()
			outSortIndex(order, keys)
		}
		dst = append(dst, '{')
		for i := 0; i < n; i++ {
			j := i
			if order != nil {
				j = order[i]
			}
			k, val := x.At(j)
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = outJSONString(dst, k)
			dst = append(dst, ':')
			if dst, err = appendJSON(dst, val, sortKeys); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case Unknown:
		return dst, errOutputUnknown
	}
	return dst, errOutputType(v)
}

func outKeysSorted(m *Map) bool {
	keys := m.Keys()
	for i := 1; i < len(keys); i++ {
		if keys[i-1] > keys[i] {
			return false
		}
	}
	return true
}

// outSortIndex sorts order so that keys[order[i]] ascend in byte order.
func outSortIndex(order []int, keys []string) {
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
}

// outJSONFloat writes f as encoding/json does, but whole numbers in the
// int64 range as integers.
func outJSONFloat(dst []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, errJSONNonFinite
	}
	if i, ok := outWholeInt64(f); ok {
		return strconv.AppendInt(dst, i, 10), nil
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// e-09 to e-9, as encoding/json does.
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, nil
}

// outJSONString is encoding/json's appendString with escapeHTML off.
func outJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', outHexLower[c>>4], outHexLower[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', outHexLower[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const outHexLower = "0123456789abcdef"
