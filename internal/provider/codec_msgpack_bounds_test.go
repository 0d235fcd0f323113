package provider

import (
	"runtime/metrics"
	"testing"
)

// dynamicOf is the protocol bytes of a value of dynamic type whose type
// is typeJSON and whose value is the msgpack bytes val: [type, value].
func dynamicOf(typeJSON string, val ...byte) []byte {
	b := append([]byte{0x92, 0xc4, byte(len(typeJSON))}, typeJSON...)
	return append(b, val...)
}

// pad is n bytes of nothing in particular after a header.
func pad(b []byte, n int) []byte {
	return append(b, make([]byte, n)...)
}

// allocated is how many bytes f allocates (and any goroutine with it:
// runtime/metrics, unlike ReadMemStats, does not stop the world, so the
// fuzzer can ask on every input).
func allocated(f func()) uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	before := s[0].Value.Uint64()
	f()
	metrics.Read(s)
	return s[0].Value.Uint64() - before
}

// A header that claims more than the input holds is refused before
// anything is allocated for it: each kind of length header, where the
// decoder meets it, with the exact error and with next to no memory (each
// of these once made the provider allocate gigabytes).
func TestCodec_refusesLengthsLongerThanTheInput(t *testing.T) {
	for _, c := range []struct {
		name   string
		decode func() error
		want   string
	}{
		{"array32 at the top", func() error {
			_, _, err := decodeDynamic(pad([]byte{0xdd, 0xff, 0xff, 0xff, 0xff}, 19))
			return err
		}, "msgpack: array32 header claims 4294967295 elements, but the 19 bytes that remain hold at most 19"},
		{"array16 at the top", func() error {
			_, _, err := decodeDynamic(pad([]byte{0xdc, 0xff, 0xff}, 3))
			return err
		}, "msgpack: array16 header claims 65535 elements, but the 3 bytes that remain hold at most 3"},
		{"array32 of a list", func() error {
			_, _, err := decodeDynamic(pad(dynamicOf(`["list","string"]`, 0xdd, 0xff, 0xff, 0xff, 0xff), 4))
			return err
		}, "msgpack: array32 header claims 4294967295 elements, but the 4 bytes that remain hold at most 4"},
		{"map32 of a map", func() error {
			_, _, err := decodeDynamic(pad(dynamicOf(`["map","string"]`, 0xdf, 0xff, 0xff, 0xff, 0xff), 1))
			return err
		}, "msgpack: map32 header claims 4294967295 entries, but the 1 bytes that remain hold at most 0"},
		{"map16 of an object", func() error {
			_, _, err := decodeDynamic(pad(dynamicOf(`["object",{"a":"string"}]`, 0xde, 0x00, 0x03), 5))
			return err
		}, "msgpack: map16 header claims 3 entries, but the 5 bytes that remain hold at most 2"},
		{"str32 as a string argument", func() error {
			_, _, _, err := decodeString(pad([]byte{0xdb, 0xff, 0xff, 0xff, 0xff}, 19))
			return err
		}, "msgpack: str32 header claims 4294967295 bytes, but the 19 bytes that remain hold at most 19"},
		{"str8 as a string argument", func() error {
			_, _, _, err := decodeString(pad([]byte{0xd9, 0x20}, 31))
			return err
		}, "msgpack: str8 header claims 32 bytes, but the 31 bytes that remain hold at most 31"},
		{"str32 as a map key", func() error {
			_, _, err := decodeDynamic(pad(dynamicOf(`["map","string"]`, 0x81, 0xdb, 0x7f, 0xff, 0xff, 0xff), 2))
			return err
		}, "msgpack: str32 header claims 2147483647 bytes, but the 2 bytes that remain hold at most 2"},
		{"str16 as a number", func() error {
			_, _, err := decodeDynamic(pad(dynamicOf(`"number"`, 0xda, 0xff, 0xff), 1))
			return err
		}, "msgpack: str16 header claims 65535 bytes, but the 1 bytes that remain hold at most 1"},
		{"bin32 as the type", func() error {
			_, _, err := decodeDynamic(pad([]byte{0x92, 0xc6, 0xff, 0xff, 0xff, 0xff}, 18))
			return err
		}, "msgpack: bin32 header claims 4294967295 bytes, but the 18 bytes that remain hold at most 18"},
		{"bin16 as the type", func() error {
			_, _, err := decodeDynamic(pad([]byte{0x92, 0xc5, 0x01, 0x00}, 10))
			return err
		}, "msgpack: bin16 header claims 256 bytes, but the 10 bytes that remain hold at most 10"},
		{"ext32 as an unknown", func() error {
			_, _, _, err := decodeString(pad([]byte{0xc9, 0xff, 0xff, 0xff, 0xff, 0x00}, 18))
			return err
		}, "msgpack: ext32 header claims 4294967295 bytes, but the 18 bytes that remain hold at most 18"},
		// Found by FuzzCodecDecode: the type byte is missing too, and the
		// library grew a buffer towards the length before it saw the end.
		{"ext32 cut before its type byte", func() error {
			_, _, err := decodeDynamic([]byte{0xc9, '0', '0', '0', '0'})
			return err
		}, "msgpack: ext32 header claims 808464432 bytes, but the 0 bytes that remain hold at most 0"},
		{"ext8 in a dynamic", func() error {
			_, _, err := decodeDynamic([]byte{0xc7, 0x05, 0x00, 0x01})
			return err
		}, "msgpack: ext8 header claims 5 bytes, but the 1 bytes that remain hold at most 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if n := allocated(func() { err = c.decode() }); n > 64<<10 {
				t.Errorf("allocated %d bytes", n)
			}
			if err == nil || err.Error() != c.want {
				t.Errorf("error %v\nwant %s", err, c.want)
			}
		})
	}
}

// A length that just fits is read as before: the check is not off by one.
func TestCodec_readsLengthsThatJustFit(t *testing.T) {
	s, null, unknown, err := decodeString([]byte{0xd9, 0x03, 'a', 'b', 'c'})
	if err != nil || s != "abc" || null || unknown {
		t.Errorf("str8 of 3: %q %v %v %v", s, null, unknown, err)
	}
	v, _, err := decodeDynamic(dynamicOf(`["map","number"]`, 0xde, 0x00, 0x01, 0xa1, 'k', 0x07))
	if err != nil || engineText(v) != `{"k":int64(7),}` {
		t.Errorf("map16 of 1: %s %v", engineText(v), err)
	}
	v, _, err = decodeDynamic(dynamicOf(`["list","bool"]`, 0xdc, 0x00, 0x02, 0xc3, 0xc2))
	if err != nil || engineText(v) != `[bool(true),bool(false),]` {
		t.Errorf("array16 of 2: %s %v", engineText(v), err)
	}
}

// FuzzCodecDecode feeds the decoder arbitrary bytes, crafted length
// headers among the seeds: it never panics, and never allocates more than
// a small multiple of its input (a length is believed only as far as the
// input can hold it).
func FuzzCodecDecode(f *testing.F) {
	for _, seed := range [][]byte{
		pad([]byte{0xdd, 0xff, 0xff, 0xff, 0xff}, 19),
		pad(dynamicOf(`["map","string"]`, 0xdf, 0xff, 0xff, 0xff, 0xff), 1),
		pad(dynamicOf(`["list","dynamic"]`, 0x91, 0x92, 0xc6, 0x00, 0x00, 0xff, 0xff), 4),
		pad([]byte{0xdb, 0xff, 0xff, 0xff, 0xff}, 19),
		pad([]byte{0xc9, 0xff, 0xff, 0xff, 0xff, 0x00}, 18),
		dynamicOf(`["object",{"a":["tuple",["string","number"]]}]`, 0x81, 0xa1, 'a', 0x92, 0xa1, 'x', 0xcb, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18),
		dynamicOf(`["set","dynamic"]`, 0x91, 0x92, 0xc4, 0x08, '"', 's', 't', 'r', 'i', 'n', 'g', '"', 0xa0),
		{0xd4, 0x00, 0x00},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		limit := uint64(256*len(data) + 1<<20)
		if n := allocated(func() { _, _, _ = decodeDynamic(data) }); n > limit {
			t.Fatalf("decodeDynamic of %d bytes allocated %d bytes", len(data), n)
		}
		if n := allocated(func() { _, _, _, _ = decodeString(data) }); n > limit {
			t.Fatalf("decodeString of %d bytes allocated %d bytes", len(data), n)
		}
	})
}
