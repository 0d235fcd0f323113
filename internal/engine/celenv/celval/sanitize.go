package celval

import (
	"strconv"
	"strings"
)

// Messages: taking out of CEL's error messages anything that may come from a variable's value.

// Sanitize removes from a CEL error message anything that may come from
// a variable's value: map keys, indexes, quoted input and regex patterns.
// Type names and the names written in the template stay.
func Sanitize(msg string) string {
	if out, ok := Reword(msg); ok {
		return out
	}
	return ScrubQuoted(msg)
}

// Reword gives the fixed wording of the CEL messages whose text is
// mostly a value.
func Reword(msg string) (string, bool) {
	switch {
	case strings.HasPrefix(msg, "internal error"):
		return "internal error while evaluating the expression", true
	case strings.Contains(msg, "no such key"):
		return "no such key", true
	case strings.Contains(msg, "index") && (strings.Contains(msg, "out of range") || strings.Contains(msg, "out of bounds")):
		return "index out of range", true
	case strings.HasPrefix(msg, "lists.range: size"):
		if i := strings.Index(msg, "exceeds"); i >= 0 {
			return "lists.range: the size " + msg[i:], true
		}
	case strings.Contains(msg, "error parsing regexp: "):
		i := strings.Index(msg, "error parsing regexp: ")
		rest := msg[i+len("error parsing regexp: "):]
		if j := strings.Index(rest, ": `"); j >= 0 {
			rest = rest[:j]
		}
		return "invalid regular expression: " + rest, true
	case strings.HasPrefix(msg, "join: invalid input"):
		return "join: the list holds a value that is not a string", true
	case strings.HasPrefix(msg, "invalid substring range"):
		return "invalid substring range", true
	case strings.HasPrefix(msg, "insert failed: key"):
		return "the map would hold the same key twice", true
	}
	return "", false
}

// ScrubQuoted drops quoted text from msg, keeping quoted type names.
// Quoted text may be a value, and a value may hold quotes itself, so a
// segment ends only at a quote followed by a space, punctuation or the end,
// and "..." segments are read as Go quoted strings. If any quote is left
// unpaired, everything from the first quote to the last one goes.
func ScrubQuoted(msg string) string {
	if out, ok := scrubSegments(msg); ok {
		return out
	}
	first := strings.IndexAny(msg, "'\"`")
	last := strings.LastIndexAny(msg, "'\"`")
	if first < 0 {
		return msg
	}
	if last == first {
		return msg[:first] + "…" // nothing closes it: drop the rest
	}
	return msg[:first] + "…" + msg[last+1:]
}

func scrubSegments(msg string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(msg); {
		c := msg[i]
		if c != '\'' && c != '"' && c != '`' {
			b.WriteByte(c)
			i++
			continue
		}
		if c == '\'' && i > 0 && i+1 < len(msg) && isLetter(msg[i-1]) && isLetter(msg[i+1]) {
			b.WriteByte(c) // an apostrophe, as in "can't"
			i++
			continue
		}
		if i > 0 && !strings.ContainsRune(" ([{:=,\n", rune(msg[i-1])) {
			return "", false
		}
		end := -1
		if c == '"' {
			if q, err := strconv.QuotedPrefix(msg[i:]); err == nil && closesSegment(msg, i+len(q)) {
				end = i + len(q)
			}
		} else {
			for j := i + 1; j < len(msg); j++ {
				if msg[j] == c && closesSegment(msg, j+1) {
					end = j + 1
					break
				}
			}
		}
		if end < 0 {
			return "", false
		}
		if inner := msg[i+1 : end-1]; c == '\'' && isTypeName(inner) {
			b.WriteString(msg[i:end])
		} else {
			b.WriteString("…")
		}
		i = end
	}
	return b.String(), true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// closesSegment reports whether a quoted segment may end just before i.
func closesSegment(msg string, i int) bool {
	return i >= len(msg) || strings.ContainsRune(" :,;)]}.!?\n", rune(msg[i]))
}

func isTypeName(s string) bool {
	switch s {
	case "int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type", "type",
		"timestamp", "duration", "optional_type", "dyn", "Quantity", "URL", "IP", "CIDR", "Semver", "Format":
		return true
	}
	return strings.HasPrefix(s, "google.protobuf.") || strings.HasPrefix(s, "kubernetes.") ||
		strings.HasPrefix(s, "list(") || strings.HasPrefix(s, "map(") || strings.HasPrefix(s, "optional_type(")
}
