//go:build unix

package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Files at the edges: $include and RenderFile read only regular files,
// refuse one over MaxTemplateBytes by its size before reading it, never
// wait on a named pipe, and stop when the render is cancelled. They read
// what Terraform's file() could read: a symbolic link is followed, and a
// file outside the module is read when no Roots are set.

// renderWithin renders the template file at path and gives its result
// with base written BASE, failing the test when no answer comes in 20 s
// (the read blocked).
func renderWithin(t *testing.T, e *Engine, path, base string) string {
	t.Helper()
	done := make(chan string, 1)
	go func() {
		res := renderCase(context.Background(), e, path, nil)
		done <- strings.ReplaceAll(res.String(), base, "BASE")
	}()
	select {
	case got := <-done:
		return got
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: no answer in 20 s: a read blocked", path)
		return ""
	}
}

func TestInclude_readsOnlyRegularFilesWithinTheLimit(t *testing.T) {
	base := t.TempDir()
	inc := func(p string) string { return "a:\n  $include: " + p + "\n" }
	writeFiles(t, base, map[string]string{
		"real.yaml":    "real: true\n",
		"zero.yaml":    inc("/dev/zero"),
		"random.yaml":  inc("/dev/urandom"),
		"fifo.yaml":    inc("fifo"),
		"dir.yaml":     inc("parts"),
		"parts/x.yaml": "x: 1\n",
		"link.yaml":    inc("real-link.yaml"),
		"sparse.yaml":  inc("big.yaml"),
		"netrc":        "machine example.com login me password hunter2\n",
		"netrc.yaml":   inc("netrc"),
	})
	if err := syscall.Mkfifo(filepath.Join(base, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, filepath.Join(base, "real.yaml"), filepath.Join(base, "real-link.yaml"))
	big := filepath.Join(base, "big.yaml")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 1<<30); err != nil { // a gibibyte of no real bytes
		t.Fatal(err)
	}
	e := New(Options{Loader: OSLoader{}})
	for _, c := range []struct{ file, want string }{
		{"zero.yaml", `error: BASE/zero.yaml:2:13: a.$include: cannot read included file "/dev/zero": not a regular file but a device`},
		{"random.yaml", `error: BASE/random.yaml:2:13: a.$include: cannot read included file "/dev/urandom": not a regular file but a device`},
		{"fifo.yaml", `error: BASE/fifo.yaml:2:13: a.$include: cannot read included file "BASE/fifo": not a regular file but a named pipe (FIFO)`},
		{"dir.yaml", `error: BASE/dir.yaml:2:13: a.$include: cannot read included file "BASE/parts": not a regular file but a directory`},
		{"link.yaml", "a:\n  real: true\n"},
		{"sparse.yaml", `error: BASE/sparse.yaml:2:13: a.$include: included file "BASE/big.yaml" is larger than MaxTemplateBytes (268435456 bytes); if this is intended, raise it with the command line's --max-template-bytes (reference §7)`},
	} {
		t.Run(c.file, func(t *testing.T) {
			if got := renderWithin(t, e, filepath.Join(base, c.file), base); got != c.want {
				t.Errorf("\n got: %s\nwant: %s", got, c.want)
			}
		})
	}
}

func TestRenderFile_readsOnlyRegularFilesWithinTheLimit(t *testing.T) {
	base := t.TempDir()
	fifo := filepath.Join(base, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(base, "big.yaml")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 1<<30); err != nil {
		t.Fatal(err)
	}
	e := New(Options{Loader: OSLoader{}})
	for _, c := range []struct{ path, want string }{
		{"/dev/zero", "error: /dev/zero:1:1: cannot read template: not a regular file but a device"},
		{fifo, "error: BASE/fifo:1:1: cannot read template: not a regular file but a named pipe (FIFO)"},
		{base, "error: BASE:1:1: cannot read template: not a regular file but a directory"},
		{big, "error: BASE/big.yaml:1:1: template is 1073741824 bytes, more than MaxTemplateBytes (268435456); if this is intended, raise it with the command line's --max-template-bytes (reference §7)"},
	} {
		if got := renderWithin(t, e, c.path, base); got != c.want {
			t.Errorf("\n got: %s\nwant: %s", got, c.want)
		}
	}
}

// A render cancelled before an include is read stops with the context's
// error, named as a cancellation.
func TestInclude_readStopsWhenTheRenderIsCancelled(t *testing.T) {
	base := t.TempDir()
	writeFiles(t, base, map[string]string{"t.yaml": "a:\n  $include: real.yaml\n", "real.yaml": "b: 1\n"})
	e := New(Options{Loader: OSLoader{}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := e.RenderFile(ctx, filepath.Join(base, "t.yaml"), nil)
	if err == nil || !strings.Contains(err.Error(), "cancel") {
		t.Fatalf("got %v", err)
	}
	_, err = e.LoadFile(ctx, filepath.Join(base, "t.yaml"))
	if want := "t.yaml:1:1: cannot read template: cancelled: context canceled"; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("got %v\nwant …%s", err, want)
	}
}
