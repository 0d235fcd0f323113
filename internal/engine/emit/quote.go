package emit

import (
	"strconv"
	"strings"
	"time"
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
		if len(s) > 1 && isDigit(s[1]) {
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

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

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
	for i < len(s) && isDigit(s[i]) {
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
//
//	^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
func yamlFloatSyntax(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		j := skipDigits(s, i)
		if j == i {
			return false
		}
		i = j
	} else {
		j := skipDigits(s, i)
		if j == i {
			return false
		}
		i = j
		if i < len(s) && s[i] == '.' {
			i = skipDigits(s, i+1)
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := skipDigits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

func skipDigits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// skipClass skips bytes of s from i on that ok accepts.
func skipClass(s string, i int, ok func(byte) bool) int {
	for i < len(s) && ok(s[i]) {
		i++
	}
	return i
}

func isDigitOrUnderscore(c byte) bool { return isDigit(c) || c == '_' }

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
	if !(c == '+' || c == '-' || c == '.' || isDigit(c)) {
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
//
//	^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
func isBase60(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i >= len(s) || !isDigit(s[i]) {
		return false
	}
	i = skipClass(s, i+1, isDigitOrUnderscore)
	groups := 0
	for i < len(s) && s[i] == ':' {
		i++
		if i >= len(s) || !isDigit(s[i]) {
			return false
		}
		if s[i] <= '5' && i+1 < len(s) && isDigit(s[i+1]) {
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
		i = skipClass(s, i+1, isDigitOrUnderscore)
	}
	return i == len(s)
}

// isYAML11Int matches the YAML 1.1 int forms other than sexagesimal:
//
//	[-+]?0b[0-1_]+ | [-+]?0[0-7_]+ | [-+]?(0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+
func isYAML11Int(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" || !isDigit(s[0]) {
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
	return s != "" && skipClass(s, 0, ok) == len(s)
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
		j := skipClass(s, i+1, isDigitOrUnderscore)
		if j == i+1 {
			return false
		}
		i = j
	} else {
		if i >= len(s) || !isDigit(s[i]) {
			return false
		}
		i = skipClass(s, i+1, isDigitOrUnderscore)
		if i >= len(s) || s[i] != '.' {
			return false
		}
		i = skipClass(s, i+1, isDigitOrUnderscore)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		if i+1 >= len(s) || s[i+1] != '+' && s[i+1] != '-' {
			return false
		}
		j := skipDigits(s, i+2)
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
	t := timestampText(s)
	i := t.date()
	if i < 0 {
		return false
	}
	if i == len(s) {
		return true
	}
	if i = t.time(i); i < 0 {
		return false
	}
	return i == len(s) || t.zone(i)
}

// timestampText reads the parts of a YAML 1.1 timestamp. Each method takes
// the index where its part starts and gives the index after it, or -1.
type timestampText string

// digits reads lo to hi digits.
func (t timestampText) digits(i, lo, hi int) int {
	if i < 0 {
		return -1
	}
	n := 0
	for i+n < len(t) && n < hi && isDigit(t[i+n]) {
		n++
	}
	if n < lo {
		return -1
	}
	return i + n
}

// lit reads the byte c.
func (t timestampText) lit(i int, c byte) int {
	if i >= 0 && i < len(t) && t[i] == c {
		return i + 1
	}
	return -1
}

// blanks skips spaces and tabs.
func (t timestampText) blanks(i int) int {
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	return i
}

// date reads YYYY-M-D, with one- or two-digit month and day.
func (t timestampText) date() int {
	i := t.digits(0, 4, 4)
	i = t.digits(t.lit(i, '-'), 1, 2)
	return t.digits(t.lit(i, '-'), 1, 2)
}

// time reads the separator (T, t or blanks) and H:MM:SS with an optional
// fraction.
func (t timestampText) time(i int) int {
	switch t[i] {
	case 'T', 't':
		i++
	case ' ', '\t':
		i = t.blanks(i)
	default:
		return -1
	}
	i = t.digits(i, 1, 2)
	for range 2 {
		i = t.digits(t.lit(i, ':'), 2, 2)
	}
	if i >= 0 && i < len(t) && t[i] == '.' {
		i = skipDigits(string(t), i+1)
	}
	return i
}

// zone reports whether the rest, from i, is a time zone: blanks, then Z or
// a sign, an hour and an optional :MM.
func (t timestampText) zone(i int) bool {
	i = t.blanks(i)
	if i < len(t) && t[i] == 'Z' {
		return i+1 == len(t)
	}
	if i >= len(t) || t[i] != '+' && t[i] != '-' {
		return false
	}
	if i = t.digits(i+1, 1, 2); i < 0 {
		return false
	}
	if i < len(t) && t[i] == ':' {
		i = t.digits(i+1, 2, 2)
	}
	return i == len(t)
}
