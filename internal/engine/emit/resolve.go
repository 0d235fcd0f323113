package emit

import (
	"strconv"
	"strings"
	"time"
)

// How yaml.v3 resolves a plain scalar: the text it reads as a null, bool,
// number or timestamp rather than a string.

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
