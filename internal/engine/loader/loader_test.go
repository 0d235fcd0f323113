package loader

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// writeFile writes text to dir/name and gives the path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOSLoader_readsInsideItsRootsAndRefusesTheRest(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	in := writeFile(t, root, "in.yaml", "a: 1\n")
	out := writeFile(t, outside, "out.yaml", "secret: 1\n")
	if err := os.Symlink(out, filepath.Join(root, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	l := OSLoader{Roots: []string{root}}
	ctx := context.Background()

	got, err := l.ReadFile(ctx, in, 100)
	if err != nil || string(got) != "a: 1\n" {
		t.Fatalf("inside: %q, %v", got, err)
	}
	for name, path := range map[string]string{
		"a file outside":                     out,
		"a symlink inside that leads out":    filepath.Join(root, "link.yaml"),
		"a missing file outside (no lookup)": filepath.Join(outside, "missing.yaml"),
		"a path climbing out":                filepath.Join(root, "..", filepath.Base(outside), "out.yaml"),
	} {
		if _, err := l.ReadFile(ctx, path, 100); !errors.Is(err, ErrOutsideRoots) {
			t.Errorf("%s: err = %v, want ErrOutsideRoots", name, err)
		}
		if _, err := l.ReadDir(ctx, filepath.Dir(path)); name == "a file outside" && !errors.Is(err, ErrOutsideRoots) {
			t.Errorf("%s: ReadDir err = %v, want ErrOutsideRoots", name, err)
		}
	}
	if got := ErrText(func() error { _, err := l.ReadFile(ctx, out, 100); return err }()); got != "file is outside the allowed include roots" {
		t.Errorf("ErrText = %q", got)
	}
}

func TestOSLoader_withoutRootsReadsAnyFileUpToTheLimit(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "big.yaml", "0123456789")
	ctx := context.Background()
	if got, err := (OSLoader{}).ReadFile(ctx, p, 10); err != nil || string(got) != "0123456789" {
		t.Fatalf("at the limit: %q, %v", got, err)
	}
	_, err := (OSLoader{}).ReadFile(ctx, p, 9)
	if err == nil {
		t.Fatal("over the limit: no error")
	}
	if got := ErrText(err); got != "larger than 9 bytes (it is 10 bytes)" {
		t.Errorf("ErrText of a file too large = %q", got)
	}
	if _, err := (OSLoader{}).ReadFile(ctx, filepath.Join(dir, "none.yaml"), 10); ErrText(err) != "file does not exist" {
		t.Errorf("missing file: ErrText = %q", ErrText(err))
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := (OSLoader{}).ReadDir(cancelled, dir); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled ReadDir: %v", err)
	}
}

func TestFSLoader_readsSlashPathsAndRefusesLeavingTheRoot(t *testing.T) {
	l := FSLoader{FS: fstest.MapFS{
		"t/a.yaml": {Data: []byte("a: 1\n")},
		"t/b.yaml": {Data: []byte("b: 2\n")},
	}}
	ctx := context.Background()
	for _, name := range []string{"t/a.yaml", "/t/a.yaml", "t/../t/a.yaml"} {
		if got, err := l.ReadFile(ctx, name, 100); err != nil || string(got) != "a: 1\n" {
			t.Errorf("ReadFile(%q) = %q, %v", name, got, err)
		}
	}
	if _, err := l.ReadFile(ctx, "../a.yaml", 100); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("leaving the root: %v, want fs.ErrInvalid", err)
	}
	entries, err := l.ReadDir(ctx, "t")
	if err != nil || len(entries) != 2 || entries[0].Name() != "a.yaml" || entries[1].Name() != "b.yaml" {
		t.Errorf("ReadDir = %v, %v", entries, err)
	}
	if _, err := l.ReadDir(ctx, "../t"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("ReadDir leaving the root: %v", err)
	}
}
