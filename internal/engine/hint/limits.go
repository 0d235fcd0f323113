package hint

import "strings"

// RaiseLimit is the advice an error gives when a render reaches one of the
// engine's limits (reference §7), option being its name (MaxNodes): how to
// raise it, with the command line flag of that name (--max-nodes), which
// the reference's §7 documents.
func RaiseLimit(option string) string {
	return "; if this is intended, raise it with the command line's " + LimitFlag(option) + " (reference §7)"
}

// LimitFlag is the command line flag of a limit: MaxNodes is --max-nodes.
func LimitFlag(option string) string {
	var b strings.Builder
	b.WriteString("-")
	for _, c := range option {
		if c >= 'A' && c <= 'Z' {
			b.WriteByte('-')
			c += 'a' - 'A'
		}
		b.WriteRune(c)
	}
	return b.String()
}
