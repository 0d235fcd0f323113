package schema

import (
	"slices"
	"strconv"
	"strings"
)

// failure is one failure, with the instance path that sorts it.
type failure struct {
	name  string // the variable
	path  []pathSeg
	msg   string
	names map[string]bool // the keys the path may show (schemaNames)
}

type pathSeg struct {
	key   string
	index int // -1 for a key
}

// formatFailures sorts failures by variable, path and message, drops
// duplicates and formats them as "PATH: MESSAGE"; hide leaves out the
// keys the schema does not name (formatPath).
func formatFailures(fs []failure, hide bool) []string {
	if len(fs) == 0 {
		return nil
	}
	slices.SortFunc(fs, compareFailures)
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		line := formatPath(f.name, f.path, f.names, hide) + ": " + f.msg
		if len(out) > 0 && out[len(out)-1] == line {
			continue
		}
		out = append(out, line)
	}
	return out
}

func compareFailures(a, b failure) int {
	if c := strings.Compare(a.name, b.name); c != 0 {
		return c
	}
	for i := 0; i < len(a.path) && i < len(b.path); i++ {
		x, y := a.path[i], b.path[i]
		if x.index >= 0 && y.index >= 0 {
			if c := x.index - y.index; c != 0 {
				return c
			}
			continue
		}
		if x.index >= 0 || y.index >= 0 {
			// Cannot happen for one instance; keep the order total.
			if x.index >= 0 {
				return -1
			}
			return 1
		}
		if c := strings.Compare(x.key, y.key); c != 0 {
			return c
		}
	}
	if c := len(a.path) - len(b.path); c != 0 {
		return c
	}
	return strings.Compare(a.msg, b.msg)
}

// formatPath writes `name.key[1].other`. A key that is not an identifier
// (letters, digits, _ and -) is written as ["key"]. Keys are the
// structure of the variable, never its values, and are named (reference
// §6); with hide (a render the caller marked sensitive), a key that the
// schema does not name (names) is written as […], so the path keeps its
// place.
func formatPath(name string, path []pathSeg, names map[string]bool, hide bool) string {
	var b strings.Builder
	b.WriteString(name)
	for _, s := range path {
		switch {
		case s.index >= 0:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		case hide && !names[s.key]:
			b.WriteString("[…]")
		case isPathIdent(s.key):
			b.WriteByte('.')
			b.WriteString(s.key)
		default:
			b.WriteByte('[')
			b.WriteString(quoteJSON(s.key))
			b.WriteByte(']')
		}
	}
	return b.String()
}

func isPathIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9' && i > 0)) {
			return false
		}
	}
	return true
}

// instancePath turns an instance location into path segments, telling list
// indexes from keys by walking the instance.
func instancePath(inst any, loc []string) []pathSeg {
	path := make([]pathSeg, 0, len(loc))
	cur := inst
	for _, tok := range loc {
		switch x := cur.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err == nil && i >= 0 && i < len(x) {
				path = append(path, pathSeg{index: i})
				cur = x[i]
				continue
			}
			cur = nil
		case map[string]any:
			cur = x[tok]
		default:
			cur = nil
		}
		path = append(path, pathSeg{key: tok, index: -1})
	}
	return path
}

func instanceAt(inst any, loc []string) any {
	cur := inst
	for _, tok := range loc {
		switch x := cur.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			cur = x[i]
		case map[string]any:
			cur = x[tok]
		default:
			return nil
		}
	}
	return cur
}

func appendKey(path []pathSeg, key string) []pathSeg {
	return append(slices.Clip(path), pathSeg{key: key, index: -1})
}
