package cli

import (
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/transform"
)

// FuzzFlags feeds any text to render's --max-… flags and to
// --keep-namespace: a value is refused with an error or taken, never a
// panic; a taken limit is above 0, and a taken --keep-namespace entry
// reads back from its own String.
func FuzzFlags(f *testing.F) {
	for _, s := range []string{"1", "256Mi", "1Gi", "0", "-1", "1e3", "9223372036854775807", "99999999999999999999",
		"2147483648", "1.5Ki", "kube-system", "RoleBinding/auth-reader", "RoleBinding/kube-system/auth-reader", "a//b", "/", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lf := range limitFlags {
			v := &limitValue{f: lf}
			if err := v.Set(s); err == nil && v.n <= 0 {
				t.Fatalf("--%s %q was taken as %d", lf.flag, s, v.n)
			}
		}
		k, ok := transform.ParseKeep(s)
		if !ok {
			return
		}
		back, ok := transform.ParseKeep(k.String())
		if !ok || back != k {
			t.Fatalf("--keep-namespace %q read as %+v, whose String %q reads back as %+v, %v", s, k, k.String(), back, ok)
		}
	})
}
