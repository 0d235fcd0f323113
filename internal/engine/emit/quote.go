package emit

import (
	"strings"
	"unicode/utf8"
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

// scalarScan is what analyzeScalar finds in a string.
type scalarScan struct {
	blockIndicators, lineBreaks, special, tabs                                       bool
	leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
}

// analyzeScalar is yaml_emitter_analyze_scalar for block context. s must be
// valid UTF-8.
func analyzeScalar(s string) uint8 {
	if len(s) == 0 {
		return fPlain | fSingle
	}
	var sc scalarScan
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		sc.blockIndicators = true
	}
	precededByWhitespace := true
	previousSpace, previousBreak := false, false
	for i, w := 0, 0; i < len(s); i += w {
		c := s[i]
		w = yamlRuneWidth(c)
		followedByWhitespace := i+w >= len(s) || s[i+w] == ' ' || s[i+w] == '\t'
		if isIndicator(c, i == 0, precededByWhitespace, followedByWhitespace) {
			sc.blockIndicators = true
		}
		if c == '\t' {
			sc.tabs = true
		} else if !yamlPrintable(s, i) {
			sc.special = true
		}
		bw := 0
		if c == ' ' {
			sc.leadingSpace = sc.leadingSpace || i == 0
			sc.trailingSpace = sc.trailingSpace || i+1 == len(s)
			sc.breakSpace = sc.breakSpace || previousBreak
			previousSpace, previousBreak = true, false
		} else if bw = breakWidth(s, i); bw > 0 {
			sc.lineBreaks = true
			sc.leadingBreak = sc.leadingBreak || i == 0
			sc.trailingBreak = sc.trailingBreak || i+w == len(s)
			sc.spaceBreak = sc.spaceBreak || previousSpace
			previousSpace, previousBreak = false, true
		} else {
			previousSpace, previousBreak = false, false
		}
		precededByWhitespace = c == ' ' || c == '\t' || c == 0 || bw > 0
	}
	return sc.flags()
}

// isIndicator reports whether c, first in the string or not, between the
// given whitespace, is a YAML indicator that rules out plain style.
func isIndicator(c byte, first, precededByWhitespace, followedByWhitespace bool) bool {
	if first {
		switch c {
		case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
			return true
		case '?', ':', '-':
			return followedByWhitespace
		}
		return false
	}
	switch c {
	case ':':
		return followedByWhitespace
	case '#':
		return precededByWhitespace
	}
	return false
}

// flags turns what was found into the styles the string may take.
func (sc *scalarScan) flags() uint8 {
	flags := uint8(fPlain | fSingle | fBlock)
	if sc.lineBreaks {
		flags |= fMultiline
	}
	if sc.leadingSpace || sc.leadingBreak || sc.trailingSpace || sc.trailingBreak || sc.lineBreaks || sc.blockIndicators {
		flags &^= fPlain
	}
	if sc.trailingSpace {
		flags &^= fBlock
	}
	if sc.breakSpace || sc.spaceBreak || sc.tabs || sc.special {
		flags &^= fPlain | fSingle
	}
	if sc.spaceBreak || sc.special {
		flags &^= fBlock
	}
	return flags
}
