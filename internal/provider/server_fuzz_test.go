package provider

import (
	"testing"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// FuzzServer sends generated values (every kind, nested, with nulls and
// unknowns) through the protocol server and through the framework: as a
// variable that eval and render read, as the documents of manifests(), and
// as a variable in a data source's context. Both must answer alike, down to
// the unknown and null leaves and the error texts.
func FuzzServer(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{6, 3, 4, 'k', 'i', 'n', 'd', 0, 1, 'A', 8, 2, 5, 1, 4, 0})
	f.Add([]byte{8, 3, 6, 2, 4, 'k', 'i', 'n', 'd', 0, 1, 'A', 8, 'm', 'e', 't', 'a', 'd', 'a', 't', 'a', 6, 1, 4, 'n', 'a', 'm', 'e', 0, 1, 'x'})
	f.Add([]byte{11, 2, 1, 'k', 7, 1, 'j', 9})
	f.Add([]byte{3, 200})
	framework := providerserver.NewProtocol6(New("test")())()
	direct := NewServer("test")()
	f.Fuzz(func(t *testing.T, data []byte) {
		v := tf((&fuzzValue{b: data}).value(0))
		if !validUTF8(v) {
			// Terraform's strings are UTF-8, and the protocol's encoding
			// of types cannot carry an attribute name that is not.
			t.Skip()
		}
		vars := ctxObject(map[string]tftypes.Value{"x": v})
		for _, c := range []struct {
			fn   string
			args []tftypes.Value
		}{
			{"eval", []tftypes.Value{str("x"), vars}},
			{"render", []tftypes.Value{str("v:\n  $eval: \"${{ x }}\"\n"), vars}},
			{"manifests", []tftypes.Value{v}},
		} {
			want := callServerFunction(t, framework, c.fn, c.args...)
			if got := callServerFunction(t, direct, c.fn, c.args...); got != want {
				t.Fatalf("%s: the server and the framework differ\nserver:\n%s\nframework:\n%s", c.fn, got, want)
			}
		}
		cfg := map[string]tftypes.Value{"template": str("v:\n  $eval: \"${{ x }}\"\n"), "context": vars}
		want := callServer(t, framework, cfg, true)
		got := callServer(t, direct, cfg, true)
		if got != want {
			t.Fatalf("data source: the server and the framework differ\nserver:\n%s\nframework:\n%s", got, want)
		}
	})
}

// validUTF8 reports whether every string and attribute name in v is UTF-8.
func validUTF8(v tftypes.Value) bool {
	ok := true
	_ = tftypes.Walk(v, func(p *tftypes.AttributePath, x tftypes.Value) (bool, error) {
		for _, step := range p.Steps() {
			switch s := step.(type) {
			case tftypes.AttributeName:
				ok = ok && utf8.ValidString(string(s))
			case tftypes.ElementKeyString:
				ok = ok && utf8.ValidString(string(s))
			}
		}
		if x.IsKnown() && !x.IsNull() && x.Type().Is(tftypes.String) {
			var str string
			if x.As(&str) == nil {
				ok = ok && utf8.ValidString(str)
			}
		}
		return ok, nil
	})
	return ok
}
