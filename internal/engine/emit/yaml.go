package emit

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
	"fmt"
	"math"
	"strconv"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

func errType(v value.Value) error {
	return fmt.Errorf("cannot write a value of Go type %T", v)
}

// AppendYAML appends v as one YAML document in block style, ending in a
// newline, without a leading "---". On error it returns dst unchanged.
func AppendYAML(dst []byte, v value.Value) ([]byte, error) {
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
func EncodeYAMLStream(docs []value.Value) ([]byte, error) {
	return appendYAMLStream(nil, docs, nil)
}

// EncodeYAMLStreamSpans is EncodeYAMLStream that also says where each
// document's own text is: spans[i] is the start and end of document i in
// the stream, without its "---" line. Callers that need both the stream
// and each document write the text once and slice it.
func EncodeYAMLStreamSpans(docs []value.Value) (stream []byte, spans [][2]int, err error) {
	spans = make([][2]int, len(docs))
	stream, err = appendYAMLStream(nil, docs, spans)
	return stream, spans, err
}

// appendYAMLStream appends the stream of docs to out, recording each
// document's span when spans is not nil.
func appendYAMLStream(out []byte, docs []value.Value, spans [][2]int) ([]byte, error) {
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
func (e *yamlEmitter) node(v value.Value, where, indent int) error {
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
	case *value.Map:
		return e.mapping(x, where, indent)
	case []value.Value:
		return e.sequence(x, where, indent)
	case value.Unknown:
		return ErrUnknown
	default:
		return errType(v)
	}
	return nil
}

// mapping writes a mapping: {} when empty, otherwise one entry a line,
// with an explicit "? key" for a key that cannot be a simple key.
func (e *yamlEmitter) mapping(x *value.Map, where, indent int) error {
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
	return nil
}

// sequence writes a sequence: [] when empty, otherwise one "- " item a
// line.
func (e *yamlEmitter) sequence(x []value.Value, where, indent int) error {
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
	if i, ok := WholeInt64(f); ok {
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

// WholeInt64 reports whether f is a whole number in the int64 range.
func WholeInt64(f float64) (int64, bool) {
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
