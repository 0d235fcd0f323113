package emit

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

var (
	ErrUnknown       = errors.New("a value is not known yet, so it cannot be written out")
	errJSONNonFinite = errors.New("JSON cannot hold NaN or an infinite number")
)

// AppendJSON appends v as compact JSON. With sortKeys, map keys are sorted
// in byte order; otherwise they keep their order. Strings are escaped as
// encoding/json does without HTML escaping (invalid UTF-8 becomes U+FFFD);
// whole doubles in the int64 range are written as integers, other doubles as
// encoding/json writes them. NaN and infinities are an error. On error it
// returns dst unchanged.
func AppendJSON(dst []byte, v value.Value, sortKeys bool) ([]byte, error) {
	out, err := appendJSON(dst, v, sortKeys)
	if err != nil {
		return dst, err
	}
	return out, nil
}

func appendJSON(dst []byte, v value.Value, sortKeys bool) ([]byte, error) {
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
		return appendJSONFloat(dst, x)
	case string:
		return appendJSONString(dst, x), nil
	case []value.Value:
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
	case *value.Map:
		n := x.Len()
		var order []int
		if sortKeys {
			order = SortedOrder(x.Keys())
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
			dst = appendJSONString(dst, k)
			dst = append(dst, ':')
			if dst, err = appendJSON(dst, val, sortKeys); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case value.Unknown:
		return dst, ErrUnknown
	}
	return dst, errType(v)
}

// SortedOrder returns the indexes of keys in ascending byte order, or nil
// when keys are already sorted: the order in which maps from CEL and from
// the caller's variables are written, and walked by $for.
func SortedOrder(keys []string) []int {
	if slices.IsSorted(keys) {
		return nil
	}
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
	return order
}

// appendJSONFloat writes f as encoding/json does, but whole numbers in the
// int64 range as integers.
func appendJSONFloat(dst []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, errJSONNonFinite
	}
	if i, ok := WholeInt64(f); ok {
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

// appendJSONString is encoding/json's appendString with escapeHTML off.
func appendJSONString(dst []byte, s string) []byte {
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
				dst = append(dst, '\\', 'u', '0', '0', hexLower[c>>4], hexLower[c&0xF])
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
			dst = append(dst, '\\', 'u', '2', '0', '2', hexLower[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hexLower = "0123456789abcdef"
