package cli

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
)

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

// Every limit of the engine is a --max-… flag of render, the flag a limit's
// error names (hint.RaiseLimit) is that flag, and reference §7, where the
// error points, lists the limit with that flag and its default.
func TestLimitFlags_everyLimitIsTheFlagItsErrorNamesAndReference7Lists(t *testing.T) {
	ref, err := os.ReadFile("../../templates/guides/language-reference.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(ref, []byte("## §7. Limits"))
	end := bytes.Index(ref, []byte("## §8."))
	if start < 0 || end < start {
		t.Fatal("reference §7 not found")
	}
	section := string(ref[start:end])
	cmd := newRenderCommand(&inputs{})
	d := engine.DefaultOptions()
	byOption := map[string]limitFlag{}
	for _, f := range limitFlags {
		byOption[f.option] = f
		if got := hint.LimitFlag(f.option); got != "--"+f.flag {
			t.Errorf("%s: its error names %s; the flag is --%s", f.option, got, f.flag)
		}
		if cmd.Flags().Lookup(f.flag) == nil {
			t.Errorf("render has no --%s", f.flag)
		}
		def := f.get(d)
		shown := humanize(def)
		if f.bytes {
			shown = fmt.Sprintf("%d MiB", def>>20)
		}
		if row := fmt.Sprintf("| `%s` | `--%s` | %s |", f.option, f.flag, shown); !strings.Contains(section, row) {
			t.Errorf("reference §7 has no row %q", row)
		}
	}
	opts := reflect.TypeOf(d)
	for i := 0; i < opts.NumField(); i++ {
		if name := opts.Field(i).Name; strings.HasPrefix(name, "Max") {
			if _, ok := byOption[name]; !ok {
				t.Errorf("the engine's %s has no --max-… flag", name)
			}
		}
	}
	if len(byOption) != len(limitFlags) {
		t.Errorf("%d flags for %d limits: one limit has two flags", len(limitFlags), len(byOption))
	}
}

// humanize writes n with a comma every three digits, as the reference does.
func humanize(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
