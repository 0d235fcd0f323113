package engine

import (
	"path/filepath"
	"regexp"
	"testing"
)

// $include reads what Terraform's file() could: /proc/self/environ, the
// process's environment, is a regular file and is read; it is refused only
// because its NUL bytes are not YAML. The column, after the first
// variable, depends on the environment and is written C here.
func TestInclude_readsProcSelfEnvironAndRefusesItOnlyForItsNULBytes(t *testing.T) {
	base := t.TempDir()
	writeFiles(t, base, map[string]string{"environ.yaml": "a:\n  $include: /proc/self/environ\n"})
	e := New(Options{Loader: OSLoader{}})
	got := regexp.MustCompile(`environ:1:[0-9]+:`).ReplaceAllString(renderWithin(t, e, filepath.Join(base, "environ.yaml"), base), "environ:1:C:")
	want := "error: /proc/self/environ:1:C: invalid YAML: NUL bytes are not allowed in a template\n  included from BASE/environ.yaml:2:3"
	if got != want {
		t.Errorf("\n got: %s\nwant: %s", got, want)
	}
}
