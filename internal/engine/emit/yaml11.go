package emit

import "strings"

// YAML 1.1 and unbounded YAML 1.2 readers: the plain scalars yaml.v3 writes
// unquoted that such a reader would still take for another type.

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
