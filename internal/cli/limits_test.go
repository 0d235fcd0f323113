package cli

import "testing"

func TestLimitFlagsReadSizesAndRefuseWhatIsNoSize(t *testing.T) {
	var bytesFlag limitFlag
	for _, f := range limitFlags {
		if f.flag == "max-output-bytes" {
			bytesFlag = f
		}
	}
	for _, c := range []struct {
		in   string
		want int64
		err  string
	}{
		{in: "256Mi", want: 256 << 20},
		{in: "1e3", want: 1000},
		{in: "1E", want: 1_000_000_000_000_000_000},
		{in: "1e018", want: 1_000_000_000_000_000_000},
		{in: "0", err: "want a limit above 0"},
		{in: "1e100", err: "want a size in bytes, such as 268435456 or 256Mi"},
		// A long mantissa with a huge exponent once hung the parser.
		{in: "10000000000E000000000700000000000000000", err: "want a size in bytes, such as 268435456 or 256Mi"},
	} {
		v := &limitValue{f: bytesFlag}
		err := v.Set(c.in)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("--max-output-bytes %s: error %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || v.n != c.want):
			t.Errorf("--max-output-bytes %s: %d, %v; want %d", c.in, v.n, err, c.want)
		}
	}
}
