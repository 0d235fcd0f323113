package cli

import (
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// FuzzValues feeds any values file and any --set argument through the
// command's layering. Properties: nothing panics; a values file that does
// not read is an error naming the file; a file that reads is a mapping;
// layering a --set onto it gives a mapping or an error that never shows
// the text after the first "=" (a value may be a secret); one assignment
// onto nothing puts its value at its PATH.
func FuzzValues(f *testing.F) {
	f.Add([]byte("image:\n  repository: nginx\n  tag: \"1.27\"\nreplicas: 3\n"), "image.tag=1.28", uint8(0))
	f.Add([]byte("{}"), "a\\.b.c=null", uint8(0))
	f.Add([]byte("- a list\n"), "port=8080", uint8(1))
	f.Add([]byte("a: &x [1, *x]\n"), "=1", uint8(0))
	f.Add([]byte("a: 1\n---\nb: 2\n"), "a..b=1", uint8(0))
	f.Add([]byte("\t: bad"), "x=[1, 2", uint8(2))
	f.Add([]byte("xs: [1, 2]\n"), "xs[2]=3,xs[0].a=1", uint8(0))
	f.Add([]byte("m: {a: 1}\n"), "m[0]=1", uint8(0))
	f.Add([]byte(""), "a[65537]=1", uint8(0))
	f.Add([]byte(""), `a={x,y\,z},b=2,`, uint8(1))
	f.Add([]byte(""), `a={"k":[1,null]} , b=`, uint8(2))
	f.Fuzz(func(t *testing.T, text []byte, arg string, kind uint8) {
		v, err := parseValues("v.yaml", text)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "v.yaml:") {
				t.Fatalf("a values error that does not start with the file's position: %v", err)
			}
			v = value.NewMap(0)
		} else if _, ok := v.(*value.Map); !ok {
			t.Fatalf("a values file read as %T, want a mapping", v)
		}
		in := &inputs{ctx: t.Context(), stdin: strings.NewReader("")}
		k := setKind(kind % 3) // not --set-file: it reads files
		as, err := parseSetting(arg, k)
		if err != nil {
			assertHidesValue(t, arg, err)
			return
		}
		acc := merge.Patch(value.NewMap(0), v)
		for _, a := range as {
			sv, err := in.settingValue(k, a)
			if err != nil {
				assertHidesValue(t, arg, err)
				return
			}
			if acc, err = setAt(acc, a.path, sv, ""); err != nil {
				assertHidesValue(t, arg, err)
				return
			}
		}
		if _, ok := acc.(*value.Map); !ok {
			t.Fatalf("--set %q gave %T, want a mapping", arg, acc)
		}
		// One assignment onto nothing sets its value at its PATH.
		if len(as) != 1 {
			return
		}
		want, _ := in.settingValue(k, as[0])
		got, err := setAt(value.NewMap(0), as[0].path, want, "")
		if err != nil || want == nil {
			return // an index past the end of a new list; a null deletes
		}
		for _, s := range as[0].path {
			if s.index >= 0 {
				got = got.([]value.Value)[s.index]
			} else {
				got, _ = got.(*value.Map).Get(s.key)
			}
		}
		switch w := want.(type) {
		case *value.Map:
			if g, ok := got.(*value.Map); !ok || g.Len() > w.Len() {
				t.Fatalf("--set %q: %#v at its path, want the mapping %#v less its nulls", arg, got, w)
			}
		case []value.Value:
			if g, ok := got.([]value.Value); !ok || len(g) != len(w) {
				t.Fatalf("--set %q: %#v at its path, want %#v", arg, got, w)
			}
		default:
			if got != want {
				t.Fatalf("--set %q: %#v at its path, want %#v", arg, got, want)
			}
		}
	})
}

// assertHidesValue fails when err shows the VALUE of arg's first
// assignment (all of it after the first "=", when that is long enough to
// tell).
func assertHidesValue(t *testing.T, arg string, err error) {
	t.Helper()
	key, val, ok := strings.Cut(arg, "=")
	if strings.Contains(key, val) {
		return // the PATH may be shown, and holds the value's text
	}
	if ok && len(val) >= 8 && !strings.ContainsAny(val, "=[],.{}\\") && strings.Contains(err.Error(), val) {
		t.Fatalf("--set %q: the error shows the value: %v", arg, err)
	}
}
