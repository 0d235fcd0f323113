package emit

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// fuzzStrings are strings the emitters find hard: every kind of YAML 1.1
// and 1.2 ambiguity, indicators, escapes, line breaks and unicode. The
// fuzz value builder picks them by index, or takes raw bytes from the input.
var fuzzStrings = []string{
	"", "~", "null", "NULL", "true", "False", "yes", "No", "on", "OFF", "y", "N", "=", "<<",
	"0", "-1", "+1", "0777", "0o17", "0x1F", "0b101", "1_000", "1e3", "1.5", ".5", "1.", "._5", "1e400",
	".inf", "-.Inf", ".nan", "1:20", "190:20:30.15", "2001-12-14", "2001-12-14 21:59:43.10 -5",
	"2001-12-14T21:59:43Z", "1.2.3", "10.0.0.1", "3Gi", "v1", "a: b", "a:b", "a #b", "#a", "- a", "-",
	"? a", "---", "...", "'", "\"", "\\", "@a", "`a", "%a", "!a", "&a", "*a", "|", ">", "[", "]", "{", "}", ",",
	" lead", "trail ", "\t", "a\tb", "\x00", "\x7f", "\u0085", "\u00a0", "\ufeff", "\ufeffa", "\ufffe",
	"\u2028", "a\u2028b", "a\u2029\u2029b", "😀", "日本語", "ñ", "\xff", "a\xfeb",
	"\n", "\n\n", "a\n", "a\nb", "a\nb\n", "a\nb\n\n", " a\nb", "\ta\nb", "a\n\tb", "a \nb", "a\n b",
	"a\nb ", "a\r\nb", "\r", "a\n\u2028b", "a\n\u2028", "x\n😀", "\n a", "a\n\n\nb",
	"key", "name", "apiVersion", "metadata", "labels", "spec", "ports",
}

// fuzzFloats are doubles at the edges of the integer and float forms.
var fuzzFloats = []float64{
	0, math.Copysign(0, -1), 1, -1, 3, 0.5, -2.25, 0.1, 1e-7, 1e-6, 1e20, 1e21, 1e300, -1e300,
	1e18, 9223372036854775807, 9223372036854775808, -9223372036854775808, -9223372036854777856,
	math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), math.Inf(1), math.Inf(-1), 123456789.5,
}

// fuzzReader turns fuzz input into a value tree: each byte picks a kind,
// and strings come from fuzzStrings or straight from the input.
type fuzzReader struct{ b []byte }

func (r *fuzzReader) next() byte {
	if len(r.b) == 0 {
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *fuzzReader) take(n int) []byte {
	n = min(n, len(r.b))
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *fuzzReader) u64() uint64 {
	var buf [8]byte
	copy(buf[:], r.take(8))
	return binary.LittleEndian.Uint64(buf[:])
}

// str reads a string: raw input bytes (low bit 1, length in the other
// bits), or a fuzzStrings entry picked by the next byte (low bits 00) or
// that entry repeated up to 64 times (low bits 10), which makes long keys,
// long literals and multi-line base64.
func (r *fuzzReader) str() string {
	c := r.next()
	if c&1 == 1 {
		return string(r.take(int(c >> 1)))
	}
	s := fuzzStrings[int(r.next())%len(fuzzStrings)]
	if c&2 != 0 {
		s = strings.Repeat(s, int(c>>2)+1)
	}
	return s
}

func (r *fuzzReader) value(depth int) value.Value {
	op := r.next()
	kind := op % 9
	if depth >= 5 && kind >= 7 {
		kind = 4
	}
	switch kind {
	case 0:
		return nil
	case 1:
		return op&0x10 != 0
	case 2:
		if op&0x10 != 0 {
			return int64(r.u64())
		}
		return int64(int8(r.next()))
	case 3:
		if op&0x10 != 0 {
			return math.Float64frombits(r.u64())
		}
		return fuzzFloats[int(r.next())%len(fuzzFloats)]
	case 7:
		n := int(r.next() % 6)
		m := value.NewMap(n)
		for i := 0; i < n; i++ {
			k := r.str()
			m.Set(k, r.value(depth+1))
		}
		return m
	case 8:
		n := int(r.next() % 6)
		items := make([]value.Value, n)
		for i := range items {
			items[i] = r.value(depth + 1)
		}
		return items
	}
	return r.str()
}

func fuzzValue(data []byte) value.Value {
	r := fuzzReader{b: data}
	return r.value(0)
}

// rawString is fuzz input that builds the string s.
func rawString(s string) []byte {
	return append([]byte{4, byte(len(s)<<1 | 1)}, s...)
}

func FuzzAppendYAML(f *testing.F) {
	for _, s := range fuzzStrings {
		if len(s) < 128 {
			f.Add(rawString(s))
		}
	}
	for i := range fuzzStrings {
		// A mapping whose key and value are the same tricky string, in a
		// sequence, so keys, values and items all see it.
		f.Add([]byte{8, 2, 7, 1, 0, byte(i), 4, 0, byte(i), 4, 0, byte(i)})
		// The same, repeated into long keys and values.
		f.Add([]byte{7, 1, 30<<2 | 2, byte(i), 4, 5<<2 | 2, byte(i)})
	}
	for i := range fuzzFloats {
		f.Add([]byte{8, 2, 3, byte(i), 7, 1, 2, 3, byte(i)})
	}
	f.Add([]byte{7, 3, 7, 'k', 'e', 'y', 7, 2, 0, 8, 3, 4, 4, 0, 12, 4, 0, 14, 0x0b, 'a', '\n', 'b', 'c', '\n', 8, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if flags, ok := analyzeSimpleASCII(string(data)); ok && flags != analyzeScalar(string(data)) {
			t.Fatalf("fast path flags %b, full analysis %b for %q", flags, analyzeScalar(string(data)), data)
		}
		v := fuzzValue(data)
		checkYAMLAgainstV3(t, v)
		checkJSONAgainstStdlib(t, v)

		docs := []value.Value{v, v}
		got, err := EncodeYAMLStream(docs)
		if err != nil {
			t.Fatalf("EncodeYAMLStream: %v", err)
		}
		want, err := yamlV3Stream(docs)
		if err != nil {
			t.Fatalf("yaml.v3 reference: %v", err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("EncodeYAMLStream differs from yaml.v3\ngot  %q\nwant %q", got, want)
		}
		back, err := decodeYAMLStream(got)
		if err != nil {
			t.Fatalf("yaml.v3 cannot read the stream back: %v\n%q", err, got)
		}
		if len(back) != 2 || !sameValue(back[0], normalize(v)) || !sameValue(back[1], normalize(v)) {
			t.Fatalf("stream round trip changed the value\n%q", got)
		}
	})
}
