package provider

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"sync"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
)

// The direct codec: the protocol's msgpack values straight to engine
// values and back, without building tftypes values on the way. It gives
// exactly what toEngine(DynamicValue.Unmarshal(...)) and
// NewDynamicValue(DynamicPseudoType, fromEngine(...)) give, byte for byte
// on the way out (codec_msgpack_test.go and FuzzCodec hold it to that),
// at a fraction of their cost: the per-call share of a function call was
// mostly these two conversions.
//
// The wire format (tftypes' value_msgpack.go): an unknown value is the
// extension 0xd4 0x00 0x00 at any place; null is nil; a value of dynamic
// type is the array [type as JSON bytes, value]; numbers are ints, floats
// or, when neither holds them exactly, decimal strings; objects and maps
// are msgpack maps, written with sorted keys.

// msgpackUnknown is how the protocol writes an unknown value.
var msgpackUnknown = []byte{0xd4, 0, 0}

// codecDecoder reads one msgpack value. The library reads straight from
// r (a bytes.Reader is a ByteScanner, so it buffers nothing), so in[len(in)-r.Len():]
// is always what it has not read yet: fits looks there.
type codecDecoder struct {
	dec *msgpack.Decoder
	in  []byte
	r   *bytes.Reader
}

func newCodecDecoder(b []byte) *codecDecoder {
	r := bytes.NewReader(b)
	return &codecDecoder{dec: msgpack.NewDecoder(r), in: b, r: r}
}

// fits refuses the header at the reading position when the length it
// claims cannot fit in the bytes that remain: a string, byte string or
// extension needs its length in bytes, an array element at least one byte,
// a map entry at least two. The library allocates what a header claims
// before it reads, so a 24-byte value with a map32 or str32 header would
// otherwise cost gigabytes; checked here, no allocation is larger than the
// input. A header whose length is cut short is left for the library to
// report; an extension cut short before its type byte has none left.
func (d *codecDecoder) fits() error {
	b := d.in[len(d.in)-d.r.Len():]
	if len(b) == 0 {
		return nil
	}
	var name, unit string
	width, skip, per := 0, 0, uint64(1)
	switch c := b[0]; c {
	case msgpcode.Str8, msgpcode.Str16, msgpcode.Str32:
		name, unit, width = "str", "bytes", lenWidth(c, msgpcode.Str8, msgpcode.Str16)
	case msgpcode.Bin8, msgpcode.Bin16, msgpcode.Bin32:
		name, unit, width = "bin", "bytes", lenWidth(c, msgpcode.Bin8, msgpcode.Bin16)
	case msgpcode.Ext8, msgpcode.Ext16, msgpcode.Ext32:
		name, unit, width = "ext", "bytes", lenWidth(c, msgpcode.Ext8, msgpcode.Ext16)
		skip = 1 // the extension's type byte
	case msgpcode.Array16, msgpcode.Array32:
		name, unit, width = "array", "elements", lenWidth(c, 0, msgpcode.Array16)
	case msgpcode.Map16, msgpcode.Map32:
		name, unit, width, per = "map", "entries", lenWidth(c, 0, msgpcode.Map16), 2
	default:
		return nil
	}
	if len(b) < 1+width {
		return nil
	}
	var n uint64
	for _, x := range b[1 : 1+width] {
		n = n<<8 | uint64(x)
	}
	left := uint64(max(len(b)-1-width-skip, 0)) //nolint:gosec // not negative
	if n*per > left {
		return fmt.Errorf("msgpack: %s%d header claims %d %s, but the %d bytes that remain hold at most %d", name, 8*width, n, unit, left, left/per)
	}
	return nil
}

// lenWidth is how many bytes of length follow the code c: 1 for c8, 2 for
// c16, 4 otherwise (the 32-bit form).
func lenWidth(c, c8, c16 byte) int {
	switch c {
	case c8:
		return 1
	case c16:
		return 2
	}
	return 4
}

// decodeString decodes an argument of type string: the string, or null, or
// unknown.
func decodeString(b []byte) (s string, null, unknown bool, err error) {
	d := newCodecDecoder(b)
	v, err := d.value(&tfType{kind: kindString}, 0)
	switch x := v.(type) {
	case value.Unknown:
		return "", false, true, err
	case string:
		return x, false, false, err
	}
	return "", true, false, err
}

// decodeDynamic decodes a value of dynamic type: the engine value, and the
// value's own type (nil for a null or an unknown of dynamic type).
func decodeDynamic(b []byte) (value.Value, *tfType, error) {
	d := newCodecDecoder(b)
	return d.dynamic(0)
}

// dynamic reads [type, value], or nil, or an unknown.
func (d *codecDecoder) dynamic(depth int) (value.Value, *tfType, error) {
	if err := d.fits(); err != nil {
		return nil, nil, err
	}
	c, err := d.dec.PeekCode()
	if err != nil {
		return nil, nil, err
	}
	if msgpcode.IsExt(c) {
		return value.Unknown{}, nil, d.dec.Skip()
	}
	n, err := d.dec.DecodeArrayLen()
	switch {
	case err != nil:
		return nil, nil, err
	case n == -1:
		return nil, nil, nil
	case n != 2:
		return nil, nil, fmt.Errorf("expected 2 elements in DynamicPseudoType array, got %d", n)
	}
	if err := d.fits(); err != nil {
		return nil, nil, err
	}
	typeJSON, err := d.dec.DecodeBytes()
	if err != nil {
		return nil, nil, err
	}
	t, err := parseTypeJSON(typeJSON)
	if err != nil {
		return nil, nil, err
	}
	v, err := d.value(t, depth)
	return v, t, err
}

// value reads a value of type t as toEngine would convert it.
func (d *codecDecoder) value(t *tfType, depth int) (value.Value, error) {
	if depth > maxTypeDepth {
		return nil, errors.New("value nested too deeply")
	}
	if err := d.fits(); err != nil {
		return nil, err
	}
	c, err := d.dec.PeekCode()
	if err != nil {
		return nil, err
	}
	if msgpcode.IsExt(c) {
		return value.UnknownOf(t.unknownType()), d.dec.Skip()
	}
	if t.kind == kindDynamic {
		v, _, err := d.dynamic(depth + 1)
		return v, err
	}
	if c == msgpcode.Nil {
		return nil, d.dec.Skip()
	}
	switch t.kind {
	case kindString:
		return d.dec.DecodeString()
	case kindBool:
		return d.dec.DecodeBool()
	case kindNumber:
		return d.number(c)
	case kindList, kindSet:
		return d.list(func(int) *tfType { return t.elem }, -1, depth)
	case kindTuple:
		return d.list(func(i int) *tfType { return t.elems[i] }, len(t.elems), depth)
	case kindMap:
		return d.mapping(func(string) *tfType { return t.elem }, depth)
	case kindObject:
		return d.mapping(func(k string) *tfType { return t.attrs[k] }, depth)
	}
	return nil, fmt.Errorf("unsupported type kind %d", t.kind)
}

// number reads a number as numberToEngine converts it: an int64 when it
// is whole and fits, a float64 otherwise.
func (d *codecDecoder) number(c byte) (value.Value, error) {
	switch {
	case msgpcode.IsFixedNum(c), c == msgpcode.Int8, c == msgpcode.Int16, c == msgpcode.Int32, c == msgpcode.Int64:
		return d.dec.DecodeInt64()
	case c == msgpcode.Uint8, c == msgpcode.Uint16, c == msgpcode.Uint32, c == msgpcode.Uint64:
		u, err := d.dec.DecodeUint64()
		if err != nil || u <= math.MaxInt64 {
			return int64(u), err //nolint:gosec // checked against MaxInt64
		}
		return numberToEngine(new(big.Float).SetUint64(u))
	case c == msgpcode.Float, c == msgpcode.Double:
		f, err := d.dec.DecodeFloat64()
		if err != nil {
			return nil, err
		}
		if math.IsNaN(f) {
			return nil, errors.New("a number is NaN")
		}
		return numberToEngine(big.NewFloat(f))
	}
	s, err := d.dec.DecodeString()
	if err != nil {
		return nil, err
	}
	f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	if err != nil {
		return nil, fmt.Errorf("error parsing a number: %w", err)
	}
	return numberToEngine(f)
}

// list reads a list, set or tuple (want elements for a tuple, -1 else).
func (d *codecDecoder) list(elem func(int) *tfType, want, depth int) (value.Value, error) {
	n, err := d.dec.DecodeArrayLen()
	if err != nil {
		return nil, err
	}
	if want >= 0 && n != want {
		return nil, fmt.Errorf("error decoding tuple; expected %d items, got %d", want, n)
	}
	out := make([]value.Value, n)
	for i := range out {
		if out[i], err = d.value(elem(i), depth+1); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// mapping reads a map or an object into a map with sorted keys.
func (d *codecDecoder) mapping(elem func(string) *tfType, depth int) (value.Value, error) {
	n, err := d.dec.DecodeMapLen()
	if err != nil {
		return nil, err
	}
	// Terraform writes keys in order; the entries go straight into the
	// map, which is reordered only when they came otherwise.
	m := value.NewMap(n)
	sorted := true
	prev := ""
	for i := range n {
		if err := d.fits(); err != nil {
			return nil, err
		}
		k, err := d.dec.DecodeString()
		if err != nil {
			return nil, err
		}
		t := elem(k)
		if t == nil {
			return nil, fmt.Errorf("unknown attribute %q", k)
		}
		v, err := d.value(t, depth+1)
		if err != nil {
			return nil, err
		}
		sorted = sorted && (i == 0 || prev < k)
		prev = k
		m.Set(k, v)
	}
	if sorted {
		return m, nil
	}
	idx := sortedIndex(m)
	if idx == nil {
		return m, nil
	}
	out := value.NewMap(m.Len())
	for _, i := range idx {
		out.Set(m.At(i))
	}
	return out, nil
}

// encodeDynamic writes v as fromEngine converts it, as a value of dynamic
// type: the bytes NewDynamicValue(DynamicPseudoType, fromEngine(v)) gives.
// An unknown of dynamic type is the bare unknown; one of another type is
// [type, unknown], as any value of a type of its own.
func encodeDynamic(v value.Value) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return []byte{msgpcode.Nil}, nil
	case value.Unknown:
		if x.Type.Written().IsDynamic() {
			return slices.Clone(msgpackUnknown), nil
		}
	}
	if v == value.UnknownStream {
		return slices.Clone(msgpackUnknown), nil
	}
	e := getEncoder()
	defer putEncoder(e)
	if err := e.value(v); err != nil {
		return nil, err
	}
	return appendDynamic(make([]byte, 0, len(e.typ)+len(e.val)+8), e.typ, e.val), nil
}

// codecEncoder writes engine values, and beside them, in the same walk,
// the type fromEngine gives them as tftypes writes it (typ): objects for
// maps, tuples for lists, "dynamic" for null, and an unknown's own type
// ("dynamic" when nothing typed it); each map's keys are ordered once.
// It appends to its two buffers as msgpack's Encoder writes, without the
// Encoder's calls through an io.Writer.
type codecEncoder struct {
	typ, val []byte
}

// encoders keeps the buffers of finished encodings for the next: a
// function's result is copied out of them once (encodeDynamic), so a
// call's encoding allocates its result and nothing else once the buffers
// have grown to the size of the results a process writes. This reuses
// memory, not results.
var encoders = sync.Pool{New: func() any { return new(codecEncoder) }}

// maxPooledEncoder is the largest buffer kept for reuse: a rare huge
// result does not stay in memory for the life of the process.
const maxPooledEncoder = 1 << 20

func getEncoder() *codecEncoder {
	e, ok := encoders.Get().(*codecEncoder)
	if !ok {
		e = new(codecEncoder)
	}
	e.typ, e.val = e.typ[:0], e.val[:0]
	return e
}

func putEncoder(e *codecEncoder) {
	if cap(e.typ) > maxPooledEncoder || cap(e.val) > maxPooledEncoder {
		return
	}
	encoders.Put(e)
}

func (e *codecEncoder) value(v value.Value) error {
	switch x := v.(type) {
	case nil:
		e.typ = append(e.typ, `"dynamic"`...)
		e.val = append(e.val, msgpcode.Nil)
		return nil
	case value.Unknown:
		e.typ = append(append(append(e.typ, '"'), x.Type.Written().String()...), '"')
		e.val = append(e.val, msgpackUnknown...)
		return nil
	case bool:
		e.typ = append(e.typ, `"bool"`...)
		if x {
			e.val = append(e.val, msgpcode.True)
		} else {
			e.val = append(e.val, msgpcode.False)
		}
		return nil
	case string:
		e.typ = append(e.typ, `"string"`...)
		e.val = appendStringOf(e.val, x)
		return nil
	case int64:
		e.typ = append(e.typ, `"number"`...)
		e.val = appendInt(e.val, x)
		return nil
	case float64:
		e.typ = append(e.typ, `"number"`...)
		return e.float(x)
	case *value.Map:
		e.val = appendMapLen(e.val, x.Len())
		e.typ = append(e.typ, `["object",{`...)
		idx := sortedIndex(x)
		for j := range x.Len() {
			i := j
			if idx != nil {
				i = idx[j]
			}
			if j > 0 {
				e.typ = append(e.typ, ',')
			}
			k, ev := x.At(i)
			e.typ = append(appendJSONName(e.typ, k), ':')
			e.val = appendStringOf(e.val, k)
			if err := e.value(ev); err != nil {
				return err
			}
		}
		e.typ = append(e.typ, "}]"...)
		return nil
	case []value.Value:
		e.val = appendArrayLen(e.val, len(x))
		e.typ = append(e.typ, `["tuple",[`...)
		for i, ev := range x {
			if i > 0 {
				e.typ = append(e.typ, ',')
			}
			if err := e.value(ev); err != nil {
				return err
			}
		}
		e.typ = append(e.typ, "]]"...)
		return nil
	}
	if v == value.UnknownStream {
		e.typ = append(e.typ, `"dynamic"`...)
		e.val = append(e.val, msgpackUnknown...)
		return nil
	}
	return fmt.Errorf("the engine returned a value of unexpected Go type %T", v)
}

// float writes a double as tftypes writes the big.Float fromEngine makes
// of it: an int when whole and within int64, a float when exact, and
// otherwise (whole beyond int64) decimal text.
func (e *codecEncoder) float(x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return errors.New("a Terraform number cannot hold NaN or infinity")
	}
	if x == math.Trunc(x) && x >= math.MinInt64 && x < math.MaxInt64 {
		// Whole within int64 (2^63 itself is not: MaxInt64 rounds up to it).
		e.val = appendInt(e.val, int64(x))
		return nil
	}
	n := big.NewFloat(x)
	if !n.IsInt() {
		e.val = append(e.val, msgpcode.Double)
		e.val = binary.BigEndian.AppendUint64(e.val, math.Float64bits(x))
		return nil
	}
	e.val = appendStringOf(e.val, n.Text('f', -1))
	return nil
}

// appendInt writes an integer as msgpack's EncodeInt does: in the fewest
// bytes, unsigned codes for non-negative numbers.
func appendInt(b []byte, n int64) []byte {
	switch {
	case n >= 0 && n <= math.MaxInt8, n < 0 && n >= -32:
		return append(b, byte(n))
	case n >= 0 && n <= math.MaxUint8:
		return append(b, msgpcode.Uint8, byte(n))
	case n >= 0 && n <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(b, msgpcode.Uint16), uint16(n))
	case n >= 0 && n <= math.MaxUint32:
		return binary.BigEndian.AppendUint32(append(b, msgpcode.Uint32), uint32(n))
	case n >= 0:
		return binary.BigEndian.AppendUint64(append(b, msgpcode.Uint64), uint64(n))
	case n >= math.MinInt8:
		return append(b, msgpcode.Int8, byte(n))
	case n >= math.MinInt16:
		return binary.BigEndian.AppendUint16(append(b, msgpcode.Int16), uint16(n))
	case n >= math.MinInt32:
		return binary.BigEndian.AppendUint32(append(b, msgpcode.Int32), uint32(n))
	}
	return binary.BigEndian.AppendUint64(append(b, msgpcode.Int64), uint64(n))
}

// sortedIndex gives the indexes of m's entries in key order, the order in
// which Terraform objects are written, or nil when they are in that order
// already.
func sortedIndex(m *value.Map) []int {
	for i := 1; i < m.Len(); i++ {
		a, _ := m.At(i - 1)
		b, _ := m.At(i)
		if a >= b {
			idx := make([]int, m.Len())
			for j := range idx {
				idx[j] = j
			}
			slices.SortFunc(idx, func(x, y int) int {
				kx, _ := m.At(x)
				ky, _ := m.At(y)
				return strings.Compare(kx, ky)
			})
			return idx
		}
	}
	return nil
}

// appendJSONName writes an attribute name as tftypes does, with
// json.Marshal (which escapes <, > and & and replaces invalid UTF-8); the
// usual name, plain ASCII, is written directly.
func appendJSONName(b []byte, name string) []byte {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, err := json.Marshal(name)
			if err != nil { // a string always marshals
				return append(b, `""`...)
			}
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"')
}

// encodedValue is a value written once, to be placed in several
// attributes: its type as JSON, and its bytes.
type encodedValue struct {
	typ, val []byte
}

// appendDynamic writes a value of dynamic type from its parts.
func appendDynamic(b, typ, val []byte) []byte {
	b = append(b, msgpcode.FixedArrayLow|2)
	b = appendLen(b, len(typ), msgpcode.Bin8, msgpcode.Bin16, msgpcode.Bin32)
	b = append(b, typ...)
	return append(b, val...)
}

// appendStringOf is appendString of a string.
func appendStringOf(b []byte, s string) []byte {
	if len(s) < 32 {
		b = append(b, msgpcode.FixedStrLow|byte(len(s)))
	} else {
		b = appendLen(b, len(s), msgpcode.Str8, msgpcode.Str16, msgpcode.Str32)
	}
	return append(b, s...)
}

// appendString writes a string as msgpack's EncodeString does.
func appendString(b []byte, s []byte) []byte {
	if len(s) < 32 {
		b = append(b, msgpcode.FixedStrLow|byte(len(s)))
	} else {
		b = appendLen(b, len(s), msgpcode.Str8, msgpcode.Str16, msgpcode.Str32)
	}
	return append(b, s...)
}

// appendArrayLen and appendMapLen write headers as msgpack's encoder does.
func appendArrayLen(b []byte, n int) []byte {
	if n < 16 {
		return append(b, msgpcode.FixedArrayLow|byte(n))
	}
	return appendLen(b, n, 0, msgpcode.Array16, msgpcode.Array32)
}

func appendMapLen(b []byte, n int) []byte {
	if n < 16 {
		return append(b, msgpcode.FixedMapLow|byte(n))
	}
	return appendLen(b, n, 0, msgpcode.Map16, msgpcode.Map32)
}

// appendLen writes a length with the smallest of the codes given (0 for
// none): one byte after c8, two after c16, four after c32.
func appendLen(b []byte, n int, c8, c16, c32 byte) []byte {
	switch {
	case c8 != 0 && n <= math.MaxUint8:
		return append(b, c8, byte(n))
	case n <= math.MaxUint16:
		return append(b, c16, byte(n>>8), byte(n))
	}
	return append(b, c32, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
}
