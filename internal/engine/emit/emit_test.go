package emit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"go.yaml.in/yaml/v3"
)

// om builds an ordered map from key, value pairs.
func om(kv ...value.Value) *value.Map {
	m := value.NewMap(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

func list(items ...value.Value) []value.Value { return items }

// refNode is the yaml.Node tree that yaml.v3 must write exactly as
// AppendYAML writes v: every scalar carries its type's tag, strings the
// emitter deliberately quotes harder than yaml.v3 carry DoubleQuotedStyle.
func refNode(v value.Value) *yaml.Node {
	switch x := v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(x, 10)}
	case float64:
		if i, ok := WholeInt64(x); ok {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(i, 10)}
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		switch {
		case math.IsNaN(x):
			s = ".nan"
		case math.IsInf(x, 1):
			s = ".inf"
		case math.IsInf(x, -1):
			s = "-.inf"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: s}
	case string:
		return refString(x)
	case *value.Map:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for i := 0; i < x.Len(); i++ {
			k, val := x.At(i)
			n.Content = append(n.Content, refString(k), refNode(val))
		}
		return n
	case []value.Value:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, item := range x {
			n.Content = append(n.Content, refNode(item))
		}
		return n
	}
	panic(fmt.Sprintf("refNode: unsupported %T", v))
}

func refString(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	switch {
	case !utf8.ValidString(s):
		n.Tag = "" // yaml.v3 then writes !!binary
	case strings.Contains(s, "\n"):
		if s[0] == '\t' {
			n.Style = yaml.DoubleQuotedStyle
		}
	case needsExtraQuotes(s):
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// yamlV3Stream is what yaml.v3's Encoder with SetIndent(2) writes for the
// documents' reference trees.
func yamlV3Stream(docs []value.Value) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml.v3 panicked: %v", r)
		}
	}()
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	for _, d := range docs {
		if err := enc.Encode(refNode(d)); err != nil {
			return nil, err
		}
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// decodeYAMLStream reads text back with yaml.v3, keeping key order and
// the scalar types yaml.v3 resolves.
func decodeYAMLStream(text []byte) ([]value.Value, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var docs []value.Value
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		v, err := nodeValue(n.Content[0])
		if err != nil {
			return nil, err
		}
		docs = append(docs, v)
	}
}

func nodeValue(n *yaml.Node) (value.Value, error) {
	switch n.Kind {
	case yaml.ScalarNode:
		var x any
		if err := n.Decode(&x); err != nil {
			return nil, err
		}
		switch y := x.(type) {
		case nil, bool, float64, string:
			return y, nil
		case int:
			return int64(y), nil
		}
		return nil, fmt.Errorf("scalar %q decoded as %T", n.Value, x)
	case yaml.MappingNode:
		m := value.NewMap(len(n.Content) / 2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, err := nodeValue(n.Content[i])
			if err != nil {
				return nil, err
			}
			ks, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("key %q decoded as %T", n.Content[i].Value, k)
			}
			v, err := nodeValue(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			if m.Set(ks, v) {
				return nil, fmt.Errorf("duplicate key %q", ks)
			}
		}
		return m, nil
	case yaml.SequenceNode:
		items := make([]value.Value, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := nodeValue(c)
			if err != nil {
				return nil, err
			}
			items = append(items, v)
		}
		return items, nil
	}
	return nil, fmt.Errorf("unexpected node kind %v", n.Kind)
}

// normalize turns whole doubles into the integers AppendYAML writes.
func normalize(v value.Value) value.Value {
	switch x := v.(type) {
	case float64:
		if i, ok := WholeInt64(x); ok {
			return i
		}
	case *value.Map:
		m := value.NewMap(x.Len())
		for i := 0; i < x.Len(); i++ {
			k, val := x.At(i)
			m.Set(k, normalize(val))
		}
		return m
	case []value.Value:
		items := make([]value.Value, len(x))
		for i, item := range x {
			items[i] = normalize(item)
		}
		return items
	}
	return v
}

// sameValue compares values exactly: kinds, key order, NaN equal to NaN.
func sameValue(a, b value.Value) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && (x == y && math.Signbit(x) == math.Signbit(y) || math.IsNaN(x) && math.IsNaN(y))
	case *value.Map:
		y, ok := b.(*value.Map)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for i := 0; i < x.Len(); i++ {
			k1, v1 := x.At(i)
			k2, v2 := y.At(i)
			if k1 != k2 || !sameValue(v1, v2) {
				return false
			}
		}
		return true
	case []value.Value:
		y, ok := b.([]value.Value)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

func showValue(v value.Value) string {
	b, err := AppendJSON(nil, v, false)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

// checkYAMLAgainstV3 asserts that AppendYAML writes what yaml.v3 writes for
// the reference tree, and that yaml.v3 reads it back as the same value.
func checkYAMLAgainstV3(t *testing.T, v value.Value) {
	t.Helper()
	got, err := AppendYAML(nil, v)
	if err != nil {
		t.Fatalf("AppendYAML: %v", err)
	}
	want, err := yamlV3Stream([]value.Value{v})
	if err != nil {
		t.Fatalf("yaml.v3 reference: %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("AppendYAML differs from yaml.v3\nvalue: %s\ngot:\n%q\nyaml.v3:\n%q", showValue(v), got, want)
	}
	back, err := decodeYAMLStream(got)
	if err != nil {
		t.Fatalf("yaml.v3 cannot read the output back: %v\noutput:\n%q", err, got)
	}
	if len(back) != 1 || !sameValue(back[0], normalize(v)) {
		t.Fatalf("round trip changed the value\nvalue: %s\noutput:\n%q\nread back: %#v", showValue(v), got, back)
	}
}

type yamlCase struct {
	name string
	v    value.Value
	want string
}

func runYAMLCases(t *testing.T, cases []yamlCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := AppendYAML(nil, tc.v)
			if err != nil {
				t.Fatalf("AppendYAML: %v", err)
			}
			if string(got) != tc.want {
				t.Fatalf("got:\n%s\nwant:\n%s\n(got %q)", got, tc.want, got)
			}
			checkYAMLAgainstV3(t, tc.v)
		})
	}
}

func TestAppendYAML_nestedCollections(t *testing.T) {
	runYAMLCases(t, []yamlCase{
		{"service", om(
			"apiVersion", "v1",
			"kind", "Service",
			"metadata", om("name", "web", "labels", om("app", "web", "tier", "frontend")),
			"spec", om(
				"type", "ClusterIP",
				"ports", list(om("port", int64(80), "targetPort", int64(8080), "protocol", "TCP")),
				"selector", om("app", "web"),
			),
		), `apiVersion: v1
kind: Service
metadata:
  name: web
  labels:
    app: web
    tier: frontend
spec:
  type: ClusterIP
  ports:
    - port: 80
      targetPort: 8080
      protocol: TCP
  selector:
    app: web
`},
		{"sequence of mappings and sequences", list(
			om("a", int64(1), "b", list("x", list("y", "z"))),
			list(list("deep"), om("k", "v", "l", list())),
			list(),
			om(),
			nil,
		), `- a: 1
  b:
    - x
    - - "y"
      - z
- - - deep
  - k: v
    l: []
- []
- {}
- null
`},
		{"mapping values of every kind", om(
			"null", nil, "t", true, "f", false, "i", int64(-7), "x", 2.5,
			"empty map", om(), "empty list", list(), "text", "hello world",
		), `"null": null
t: true
f: false
i: -7
x: 2.5
empty map: {}
empty list: []
text: hello world
`},
		{"mapping in mapping in sequence", list(om("outer", om("inner", list(om("k", "v"))))), `- outer:
    inner:
      - k: v
`},
		{"nil map and nil list", om("m", (*value.Map)(nil), "l", []value.Value(nil)), "m: {}\nl: []\n"},
	})
}

func TestAppendYAML_rootScalars(t *testing.T) {
	runYAMLCases(t, []yamlCase{
		{"null", nil, "null\n"},
		{"true", true, "true\n"},
		{"int", int64(42), "42\n"},
		{"float", 0.25, "0.25\n"},
		{"string", "hello", "hello\n"},
		{"empty string", "", "\"\"\n"},
		{"ambiguous", "yes", "\"yes\"\n"},
		{"single-quoted", "- x", "'- x'\n"},
		{"literal", "a\nb", "|-\n  a\n  b\n"},
		{"literal with final break", "a\nb\n", "|\n  a\n  b\n"},
		{"empty map", om(), "{}\n"},
		{"empty list", list(), "[]\n"},
	})
}

func TestAppendYAML_ambiguousStringsAreQuoted(t *testing.T) {
	ambiguous := []string{
		// YAML 1.2 core schema, which yaml.v3 reads.
		"", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE",
		"0", "-1", "+1", "12", "0o17", "0x1F", "0X1f", "0b101", "-0b101", "-0o17",
		"1.5", "-1.5", ".5", "+.5", "1.", "1e3", "1E3", "-1e-3", "1.5e+3", "99999999999999999999",
		".inf", ".Inf", ".INF", "+.inf", "-.inf", "-.Inf", ".nan", ".NaN", ".NAN",
		"1_000", "1__0", "0b1_0", "0x_1F", "089", "0b-1", "0o-7",
		"2001-12-14", "2001-1-2", "2001-12-14t21:59:43.10-05:00", "2001-12-14T21:59:43Z", "2001-12-14 21:59:43.10",
		// YAML 1.1 only: booleans, octals, sexagesimals, floats, timestamps, merge and value keys.
		"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
		"0777", "0_7", "+0777", "1:20", "-1:20:30", "190:20:30.15", "1:0", "._5", "1_0.5", "1.5e+3_",
		"2001-12-14 21:59:43.10 -5", "2001-12-14 21:59:43 Z", "2001-13-45",
		"=", "<<",
		// Numbers beyond the range yaml.v3 parses but YAML 1.2 still reads as numbers.
		"1e400", "-1e400", ".1e400", "0x1FFFFFFFFFFFFFFFFF", "0o7777777777777777777777777",
	}
	var cases []yamlCase
	for _, s := range ambiguous {
		cases = append(cases, yamlCase{fmt.Sprintf("%q", s), om(s, s), fmt.Sprintf("%q: %q\n", s, s)})
	}
	runYAMLCases(t, cases)
}

func TestAppendYAML_plainStringsStayPlain(t *testing.T) {
	plain := []string{
		"hello world", "a:b", "a#b", "-a", "a-", "1.2.3", "10.0.0.1", "v1", "3Gi", "100m", "nginx:1.25",
		"http://example.com/a?b=c&d", "ñandú", "日本語", "a b  c", "x,y", "?a", "a?", "key=value",
		"0x", "0b", "0o", "0xG", "+", ".", "..", "1.2.3e4", "1e", "1e+", ".e5", "1:60",
		"12-13-14", "2001-12-14x", "yess", "nO", "oN", "tRUE", "NuLL", "<<<", "==", "0.0.0.0:80",
		"~a", "a~", "\u00a0nbsp", "é\u00a0é", "\ue000", "\uffef",
	}
	var cases []yamlCase
	for _, s := range plain {
		cases = append(cases, yamlCase{fmt.Sprintf("%q", s), list(s), "- " + s + "\n"})
	}
	runYAMLCases(t, cases)
}

func TestAppendYAML_quotingStyles(t *testing.T) {
	runYAMLCases(t, []yamlCase{
		{"indicators", list("a: b", " lead", "trail ", "#c", "a #c", "- x", "? x", ": x", "---", "...x",
			"@x", "`x", "%x", "*x", "&x", "!x", "|x", ">x", "[x", "]x", "{x", "}x", ",x", "'q", "\"q", "it's: x"),
			`- 'a: b'
- ' lead'
- 'trail '
- '#c'
- 'a #c'
- '- x'
- '? x'
- ': x'
- '---'
- '...x'
- '@x'
- '` + "`" + `x'
- '%x'
- '*x'
- '&x'
- '!x'
- '|x'
- '>x'
- '[x'
- ']x'
- '{x'
- '}x'
- ',x'
- '''q'
- '"q'
- 'it''s: x'
`},
		{"escapes", list("a\tb", "\x00", "\x07\x08\x0b\x0c\x1b", "\x7f", "\x01", "\r", "a\rb", "\u0085", "\u0080",
			"\ufeffab", "a\ufeff", "\ufffe", "😀", "a\"b: c", "\\: x", "\t", "x\u2029 y"),
			`- "a\tb"
- "\0"
- "\a\b\v\f\e"
- "\x7F"
- "\x01"
- "\r"
- "a\rb"
- "\N"
- "\x80"
- "\uFEFF\x61\x62"
- "a\uFEFF"
- "\uFFFE"
- "\U0001F600"
- 'a"b: c'
- '\: x'
- "\t"
- "x\P y"
`},
		{"line and paragraph separators", list("a\u2028b", "a\u2029\u2029b"), "- 'a\u2028  b'\n- 'a\u2029\u2029  b'\n"},
		{"line separator in a mapping in a sequence", list(om("k", "a\u2028b")), "- k: 'a\u2028    b'\n"},
		{"double quotes keep backslash and quote plain elsewhere", list(`a\b`, `say "hi"`), "- a\\b\n- say \"hi\"\n"},
	})
}

func TestAppendYAML_multiLineStrings(t *testing.T) {
	runYAMLCases(t, []yamlCase{
		{"strip", om("k", "a\nb"), "k: |-\n  a\n  b\n"},
		{"clip", om("k", "a\nb\n"), "k: |\n  a\n  b\n"},
		{"keep", om("k", "a\nb\n\n"), "k: |+\n  a\n  b\n\n"},
		{"keep then next key", om("k", "a\n\n", "next", int64(1)), "k: |+\n  a\n\nnext: 1\n"},
		{"only a break", om("k", "\n"), "k: |2+\n\n"},
		{"leading space", om("k", " a\nb"), "k: |2-\n   a\n  b\n"},
		{"leading break", om("k", "\na"), "k: |2-\n\n  a\n"},
		{"blank lines are empty", om("k", "a\n\n\nb"), "k: |-\n  a\n\n\n  b\n"},
		{"nested in a sequence", list(list("a\nb\n"), om("k", "x\ny")), "- - |\n    a\n    b\n- k: |-\n    x\n    y\n"},
		{"trailing space goes double-quoted", list("a\nb "), "- \"a\\nb \"\n"},
		{"space before a break goes double-quoted", list("a \nb"), "- \"a \\nb\"\n"},
		{"control character goes double-quoted", list("a\nb\x01"), "- \"a\\nb\\x01\"\n"},
		{"leading tab goes double-quoted", list("\ta\nb"), "- \"\\ta\\nb\"\n"},
		{"inner tab stays literal", list("a\n\tb"), "- |-\n  a\n  \tb\n"},
		{"unicode stays literal", list("ä\n日本"), "- |-\n  ä\n  日本\n"},
		{"astral plane goes double-quoted", list("a\n😀"), "- \"a\\n\\U0001F600\"\n"},
		{"carriage return goes double-quoted", list("a\r\nb"), "- \"a\\r\\nb\"\n"},
		{"looks like a number but spans lines", list("1\n2"), "- |-\n  1\n  2\n"},
	})
}

func TestAppendYAML_keys(t *testing.T) {
	long := strings.Repeat("k", 129)
	runYAMLCases(t, []yamlCase{
		{"ambiguous keys", om("yes", int64(1), "1", int64(2), "", int64(3), "null", int64(4)),
			"\"yes\": 1\n\"1\": 2\n\"\": 3\n\"null\": 4\n"},
		{"single-quoted key", om("a: b", int64(1)), "'a: b': 1\n"},
		{"multi-line key", om("a\nb", int64(1), "c", int64(2)), "? |-\n  a\n  b\n: 1\nc: 2\n"},
		{"multi-line key with final break", om("a\n", om("x", int64(1), "y", int64(2))), "? |\n  a\n: x: 1\n  \"y\": 2\n"},
		{"multi-line key, list value", om("a\nb", list("x", "y")), "? |-\n  a\n  b\n: - x\n  - \"y\"\n"},
		{"128-byte key is simple", om(long[:128], int64(1)), long[:128] + ": 1\n"},
		{"129-byte key is explicit", om(long, int64(1)), "? " + long + "\n: 1\n"},
		{"explicit key nested", list(om(long, om("a", int64(1)))), "- ? " + long + "\n  : a: 1\n"},
		{"line separator key", om("a\u2028b", int64(1)), "? 'a\u2028  b'\n: 1\n"},
		{"escaped key", om("a\tb", int64(1)), "\"a\\tb\": 1\n"},
	})
}

func TestAppendYAML_numbers(t *testing.T) {
	runYAMLCases(t, []yamlCase{
		{"ints", list(int64(0), int64(-1), int64(math.MaxInt64), int64(math.MinInt64)),
			"- 0\n- -1\n- 9223372036854775807\n- -9223372036854775808\n"},
		{"whole doubles are integers", list(3.0, math.Copysign(0, -1), -2.0, 1e18, -9223372036854775808.0),
			"- 3\n- 0\n- -2\n- 1000000000000000000\n- -9223372036854775808\n"},
		{"other doubles", list(1.5, 0.1, -2.25, 1e-7, 1e300, 9223372036854775808.0, 1e21, 123456789.5, math.SmallestNonzeroFloat64),
			"- 1.5\n- 0.1\n- -2.25\n- 1e-07\n- 1e+300\n- 9.223372036854776e+18\n- 1e+21\n- 1.234567895e+08\n- 5e-324\n"},
		{"special doubles", list(math.NaN(), math.Inf(1), math.Inf(-1)), "- .nan\n- .inf\n- -.inf\n"},
	})
}

func TestAppendYAML_invalidUTF8IsBinary(t *testing.T) {
	long := strings.Repeat("\xff", 60)
	enc := strings.Repeat("////", 20)
	runYAMLCases(t, []yamlCase{
		{"short", list("\xff"), "- !!binary /w==\n"},
		{"root", "a\xffb", "!!binary Yf9i\n"},
		{"key", om("\xfe", int64(1)), "!!binary /g==: 1\n"},
		{"long", om("k", long), "k: !!binary |\n  " + enc[:70] + "\n  " + enc[70:] + "\n"},
		{"long key", om(long, int64(1)), "? !!binary |\n  " + enc[:70] + "\n  " + enc[70:] + "\n: 1\n"},
	})
}

func TestAppendYAML_appendsToDst(t *testing.T) {
	got, err := AppendYAML([]byte("prefix\n"), om("a", int64(1)))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "prefix\na: 1\n" {
		t.Fatalf("got %q", got)
	}
}

func TestAppendYAML_errors(t *testing.T) {
	cases := []struct {
		name string
		v    value.Value
		want string
	}{
		{"unknown", value.Unknown{}, "a value is not known yet, so it cannot be written out"},
		{"nested unknown", om("a", list(int64(1), value.Unknown{})), "a value is not known yet, so it cannot be written out"},
		{"unknown stream", value.UnknownStream, "cannot write a value of Go type value.unknownStream"},
		{"int", om("a", 1), "cannot write a value of Go type int"},
		{"map", map[string]any{"secret": "s3cr3t"}, "cannot write a value of Go type map[string]interface {}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dst := []byte("keep")
			got, err := AppendYAML(dst, tc.v)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("AppendYAML error = %v, want %q", err, tc.want)
			}
			if string(got) != "keep" {
				t.Fatalf("AppendYAML returned %q on error, want dst unchanged", got)
			}
			got, err = AppendJSON(dst, tc.v, true)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("AppendJSON error = %v, want %q", err, tc.want)
			}
			if string(got) != "keep" {
				t.Fatalf("AppendJSON returned %q on error, want dst unchanged", got)
			}
			if _, err := EncodeYAMLStream([]value.Value{"ok", tc.v}); err == nil || err.Error() != tc.want {
				t.Fatalf("EncodeYAMLStream error = %v, want %q", err, tc.want)
			}
		})
	}
}

// The spans cut the stream into each document's own text, exactly as
// AppendYAML writes that document alone, and the stream is the same as
// EncodeYAMLStream's.
func TestEncodeYAMLStreamSpans_sliceEachDocument(t *testing.T) {
	docs := list(om("a", int64(1)), "a\n\n", list(), om("b", list("x", "yes")))
	stream, spans, err := EncodeYAMLStreamSpans(docs)
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := EncodeYAMLStream(docs)
	if !bytes.Equal(stream, whole) {
		t.Fatalf("stream %q differs from EncodeYAMLStream's %q", stream, whole)
	}
	if len(spans) != len(docs) {
		t.Fatalf("%d spans for %d documents", len(spans), len(docs))
	}
	for i, d := range docs {
		alone, _ := AppendYAML(nil, d)
		if got := stream[spans[i][0]:spans[i][1]]; !bytes.Equal(got, alone) {
			t.Errorf("document %d: span gives %q, want %q", i, got, alone)
		}
	}
}

func TestEncodeYAMLStream_documents(t *testing.T) {
	cases := []struct {
		name string
		docs []value.Value
		want string
	}{
		{"no documents", nil, ""},
		{"one mapping", list(om("a", int64(1))), "a: 1\n"},
		{"mappings", list(om("a", int64(1)), om("b", list("x"))), "a: 1\n---\nb:\n  - x\n"},
		{"scalars", list("x", int64(1), nil, "yes"), "x\n---\n1\n---\nnull\n---\n\"yes\"\n"},
		{"literal with kept breaks then document", list("a\n\n", om("b", int64(1))), "|+\n  a\n\n---\nb: 1\n"},
		{"empty collections", list(om(), list()), "{}\n---\n[]\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := EncodeYAMLStream(tc.docs)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if len(tc.docs) == 0 {
				return // yaml.v3's encoder cannot write a stream without documents
			}
			want, err := yamlV3Stream(tc.docs)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("differs from yaml.v3: got %q, yaml.v3 %q", got, want)
			}
			back, err := decodeYAMLStream(got)
			if err != nil {
				t.Fatal(err)
			}
			if !sameValue(normalize(tc.docs), normalize(back)) && len(tc.docs)+len(back) > 0 {
				t.Fatalf("read back %#v", back)
			}
		})
	}
}

// refJSON is the reference JSON: encoding/json without HTML escaping for
// strings and non-whole numbers.
func refJSON(v value.Value, sortKeys bool) ([]byte, error) {
	enc := func(x any) ([]byte, error) {
		var b bytes.Buffer
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		if err := e.Encode(x); err != nil {
			return nil, err
		}
		return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
	}
	switch x := v.(type) {
	case float64:
		if i, ok := WholeInt64(x); ok {
			return enc(i)
		}
		return enc(x)
	case *value.Map:
		keys := append([]string(nil), x.Keys()...)
		if sortKeys {
			sort.Strings(keys)
		}
		out := []byte{'{'}
		for i, k := range keys {
			if i > 0 {
				out = append(out, ',')
			}
			kb, _ := enc(k)
			val, _ := x.Get(k)
			vb, err := refJSON(val, sortKeys)
			if err != nil {
				return nil, err
			}
			out = append(append(append(out, kb...), ':'), vb...)
		}
		return append(out, '}'), nil
	case []value.Value:
		out := []byte{'['}
		for i, item := range x {
			if i > 0 {
				out = append(out, ',')
			}
			b, err := refJSON(item, sortKeys)
			if err != nil {
				return nil, err
			}
			out = append(out, b...)
		}
		return append(out, ']'), nil
	}
	return enc(v)
}

func checkJSONAgainstStdlib(t *testing.T, v value.Value) {
	t.Helper()
	for _, sortKeys := range []bool{false, true} {
		got, err := AppendJSON(nil, v, sortKeys)
		want, refErr := refJSON(v, sortKeys)
		if refErr != nil {
			if err == nil {
				t.Fatalf("AppendJSON accepted %#v, encoding/json says %v", v, refErr)
			}
			if err.Error() != errJSONNonFinite.Error() {
				t.Fatalf("AppendJSON error %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("AppendJSON: %v", err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("AppendJSON(sortKeys=%v)\ngot  %q\nwant %q", sortKeys, got, want)
		}
	}
}

func TestAppendJSON_values(t *testing.T) {
	cases := []struct {
		name     string
		v        value.Value
		want     string
		wantSort string
	}{
		{"scalars", list(nil, true, false, int64(-3), "s", 2.5), `[null,true,false,-3,"s",2.5]`, ""},
		{"whole doubles are integers", list(3.0, math.Copysign(0, -1), 1e18, -9223372036854775808.0), `[3,0,1000000000000000000,-9223372036854775808]`, ""},
		{"other doubles as encoding/json", list(1e-7, 1e21, 9223372036854775808.0, 0.000001, 1.5e300), `[1e-7,1e+21,9223372036854776000,0.000001,1.5e+300]`, ""},
		{"ints", list(int64(math.MaxInt64), int64(math.MinInt64)), `[9223372036854775807,-9223372036854775808]`, ""},
		{"nested keep order", om("b", om("z", int64(1), "a", int64(2)), "a", list(om())),
			`{"b":{"z":1,"a":2},"a":[{}]}`, `{"a":[{}],"b":{"a":2,"z":1}}`},
		{"byte order sort", om("é", int64(1), "Z", int64(2), "a", int64(3), "10", int64(4), "9", int64(5)),
			`{"é":1,"Z":2,"a":3,"10":4,"9":5}`, `{"10":4,"9":5,"Z":2,"a":3,"é":1}`},
		{"empty", list(om(), list(), []value.Value(nil), (*value.Map)(nil)), `[{},[],[],{}]`, ""},
		{"escapes without HTML escaping", "<a href=\"x\">&</a>\\\n\r\t\b\f\x00\x1f\x7f é 😀 \u2028\u2029",
			`"<a href=\"x\">&</a>\\\n\r\t\b\f\u0000\u001f` + "\x7f é 😀 " + `\u2028\u2029"`, ""},
		{"invalid UTF-8 replaced per byte", "a\xff\xfeb\xe2\x82", `"a\ufffd\ufffdb\ufffd\ufffd"`, ""},
		{"many keys sort", om("k9", int64(9), "k8", int64(8), "k7", int64(7), "k6", int64(6), "k5", int64(5), "k4", int64(4),
			"k3", int64(3), "k2", int64(2), "k1", int64(1), "k0", int64(0), "k10", int64(10), "k11", int64(11), "k12", int64(12), "k13", int64(13)),
			`{"k9":9,"k8":8,"k7":7,"k6":6,"k5":5,"k4":4,"k3":3,"k2":2,"k1":1,"k0":0,"k10":10,"k11":11,"k12":12,"k13":13}`,
			`{"k0":0,"k1":1,"k10":10,"k11":11,"k12":12,"k13":13,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.wantSort == "" {
				tc.wantSort = tc.want
			}
			got, err := AppendJSON([]byte("x"), tc.v, false)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != "x"+tc.want {
				t.Fatalf("got  %s\nwant x%s", got, tc.want)
			}
			got, err = AppendJSON(nil, tc.v, true)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.wantSort {
				t.Fatalf("sorted: got  %s\nwant %s", got, tc.wantSort)
			}
			checkJSONAgainstStdlib(t, tc.v)
		})
	}
}

func TestAppendJSON_nonFiniteIsError(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		got, err := AppendJSON([]byte("keep"), om("a", list(f)), false)
		if err == nil || err.Error() != "JSON cannot hold NaN or an infinite number" {
			t.Fatalf("AppendJSON(%v) error = %v", f, err)
		}
		if string(got) != "keep" {
			t.Fatalf("AppendJSON returned %q on error", got)
		}
	}
}

func TestAnalyzeSimpleASCII_agreesWithFullAnalysis(t *testing.T) {
	extra := []string{"a", "-", "-a", "- a", "?", "?a", ":", ":a", "a:", "a:b", "a: b", "a:\tb", "#", "a#", "a #", "a#b",
		" a", "a ", "a b", "---", "--", "...", "..", "a---", "[a", "a]", "a,b", "{}", "'a'", "\"a\"", "a'b", "a\"b", "~"}
	for _, s := range append(extra, fuzzStrings...) {
		flags, ok := analyzeSimpleASCII(s)
		if !ok {
			continue
		}
		if full := analyzeScalar(s); flags != full {
			t.Errorf("%q: fast path flags %b, full analysis %b", s, flags, full)
		}
	}
}
