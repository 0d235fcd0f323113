package cli

import (
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
)

// FuzzValues feeds any values file and any --set argument through the
// command's layering. Properties: nothing panics; a values file that does
// not read is an error naming the file; a file that reads is a mapping;
// a --set that parses sets its value at its path, and --set-string sets
// the text as it was given; layering the two gives a mapping.
func FuzzValues(f *testing.F) {
	f.Add([]byte("image:\n  repository: nginx\n  tag: \"1.27\"\nreplicas: 3\n"), "image.tag=1.28", false)
	f.Add([]byte("{}"), "a\\.b.c=null", false)
	f.Add([]byte("- a list\n"), "port=8080", true)
	f.Add([]byte("a: &x [1, *x]\n"), "=1", false)
	f.Add([]byte("a: 1\n---\nb: 2\n"), "a..b=1", false)
	f.Add([]byte("\t: bad"), "x=[1, 2", false)
	f.Fuzz(func(t *testing.T, text []byte, arg string, asString bool) {
		v, err := parseValues("v.yaml", text)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "v.yaml") {
				t.Fatalf("a values error that does not name the file: %v", err)
			}
			v = engine.NewMap(0)
		} else if _, ok := v.(*engine.Map); !ok {
			t.Fatalf("a values file read as %T, want a mapping", v)
		}
		keys, raw, serr := splitSet(arg)
		if serr != nil {
			return
		}
		sv, err := setting{arg: arg, string: asString}.value()
		if err != nil {
			if asString {
				t.Fatalf("--set-string %q: %v", arg, err)
			}
			return
		}
		leaf := sv
		for _, k := range keys {
			m, ok := leaf.(*engine.Map)
			if !ok {
				t.Fatalf("--set %q: no mapping at %q", arg, k)
			}
			if leaf, ok = m.Get(k); !ok {
				t.Fatalf("--set %q: key %q missing", arg, k)
			}
		}
		if asString && leaf != raw {
			t.Fatalf("--set-string %q set %#v, want the text %q", arg, leaf, raw)
		}
		if _, ok := merge.Patch(v, sv).(*engine.Map); !ok {
			t.Fatalf("layering --set %q onto a mapping gave no mapping", arg)
		}
	})
}
