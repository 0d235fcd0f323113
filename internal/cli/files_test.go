//go:build unix

package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runIn runs the command line in dir under ctx and gives the exit code
// and standard error (standard output must stay empty), failing the test
// when no answer comes in 20 s.
func runIn(t *testing.T, ctx context.Context, dir string, stdin io.Reader, args ...string) (int, string) {
	t.Helper()
	t.Chdir(dir)
	type res struct {
		code           int
		stdout, stderr string
	}
	done := make(chan res, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		code := run(ctx, args, stdin, &stdout, &stderr)
		done <- res{code, stdout.String(), stderr.String()}
	}()
	select {
	case r := <-done:
		if r.stdout != "" {
			t.Errorf("%s: stdout %q", args, r.stdout)
		}
		return r.code, r.stderr
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: no answer in 20 s", args)
		return 0, ""
	}
}

// Every file the command reads is read through the bounded reader: a
// device, a named pipe or a directory is refused by name, at once, and a
// file over the limit by its size.
func TestRun_readsOnlyRegularFilesWithinTheLimit(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte("a: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.yaml"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, "big.yaml"), 1<<30); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "pipe"}, "pipe:1:1: cannot read template: not a regular file but a named pipe (FIFO)\n"},
		{[]string{"render", "/dev/zero"}, "/dev/zero:1:1: cannot read template: not a regular file but a device\n"},
		{[]string{"render", "big.yaml"}, "big.yaml:1:1: template is 1073741824 bytes, more than MaxTemplateBytes (268435456); if this is intended, raise it with the command line's --max-template-bytes (reference §7)\n"},
		{[]string{"render", "t.yaml", "-f", "pipe"}, "pipe:1:1: cannot read values file: not a regular file but a named pipe (FIFO)\n"},
		{[]string{"render", "t.yaml", "-f", "/dev/urandom"}, "/dev/urandom:1:1: cannot read values file: not a regular file but a device\n"},
		{[]string{"render", "t.yaml", "-f", "big.yaml"}, "big.yaml:1:1: cannot read values file: larger than 268435456 bytes (it is 1073741824 bytes)\n"},
		{[]string{"eval", "1", "-f", "pipe"}, "pipe:1:1: cannot read values file: not a regular file but a named pipe (FIFO)\n"},
		{[]string{"eval", "1", "--set-file", "x=pipe"}, "pipe:1:1: cannot read the file of --set-file x: not a regular file but a named pipe (FIFO)\n"},
		{[]string{"check", "pipe"}, "pipe:1:1: cannot read template: not a regular file but a named pipe (FIFO)\n"},
		{[]string{"render", "t.yaml", "--schemas", "pipe"}, "--schemas: pipe: not a regular file but a named pipe (FIFO)\n"},
		{[]string{"render", "t.yaml", "--schemas", "/dev/zero"}, "--schemas: /dev/zero: not a regular file but a device\n"},
	} {
		code, stderr := runIn(t, context.Background(), dir, strings.NewReader(""), c.args...)
		if code != exitProblem || stderr != c.want {
			t.Errorf("%s: exit %d\n got: %s\nwant: %s", c.args, code, stderr, c.want)
		}
	}
	// Standard input is held to the limit too.
	code, stderr := runIn(t, context.Background(), dir, io.LimitReader(zeros{}, 1<<30), "render", "-")
	if want := "standard input: larger than 268435456 bytes\n"; code != exitProblem || stderr != want {
		t.Errorf("render - of a gibibyte: exit %d\n got: %s\nwant: %s", code, stderr, want)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// An interrupt (the context SIGINT cancels) stops a command that waits on
// standard input: exit 130, "interrupted", and --output-dir untouched.
func TestRun_interruptStopsAWaitingRead(t *testing.T) {
	dir := t.TempDir()
	pr, pw := io.Pipe() // standard input that never sends
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// The read has begun once this write is taken; then interrupt.
		_, _ = pw.Write([]byte("a: "))
		cancel()
	}()
	code, stderr := runIn(t, ctx, dir, pr, "render", "-", "--output-dir", "out")
	if code != exitInterrupted || stderr != "celyaml: interrupted\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Lstat(filepath.Join(dir, "out")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("out: %v", err)
	}
}

// listing is dir's entries, "/" after a directory.
func listing(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}

// A write that fails part way leaves --output-dir as it was and nothing
// beside it.
func TestWriteDir_aFailedWriteLeavesTheDirectoryAsItWas(t *testing.T) {
	dir := t.TempDir()
	tmpl := filepath.Join(dir, "t.yaml")
	if err := os.WriteFile(tmpl, []byte("kind: A\nmetadata: {name: a}\n---\nkind: B\nmetadata: {name: b}\n---\nkind: C\nmetadata: {name: c}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "gen", "out")
	if code, stderr := runIn(t, context.Background(), dir, nil, "render", "t.yaml", "--output-dir", out); code != 0 {
		t.Fatalf("first render: %d %s", code, stderr)
	}
	before := listing(t, out)
	if before != "__A___a.yaml __B___b.yaml __C___c.yaml" {
		t.Fatalf("first render wrote %s", before)
	}
	if err := os.WriteFile(tmpl, []byte("kind: D\nmetadata: {name: d}\n---\nkind: E\nmetadata: {name: e}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	orig := createFile
	defer func() { createFile = orig }()
	n := 0
	createFile = func(name string) (*os.File, error) {
		if n++; n == 2 {
			return nil, &os.PathError{Op: "open", Path: filepath.Base(name), Err: syscall.ENOSPC}
		}
		return orig(name)
	}
	code, stderr := runIn(t, context.Background(), dir, nil, "render", "t.yaml", "--output-dir", out)
	if want := "--output-dir: open __E___e.yaml: no space left on device\n"; code != exitProblem || stderr != want {
		t.Errorf("exit %d\n got: %s\nwant: %s", code, stderr, want)
	}
	if after := listing(t, out); after != before {
		t.Errorf("out holds %s, want %s", after, before)
	}
	if got := listing(t, filepath.Join(dir, "gen")); got != "out/" {
		t.Errorf("gen holds %s", got)
	}
}

// File names: no two documents share one, even ignoring case; a name
// depends on its own ID only.
func TestDocFileNames_neverCollide(t *testing.T) {
	long := strings.Repeat("x", 300)
	got := docFileNames([]string{
		"apps/Deployment/prod/web",
		"",
		"_/ConfigMap/a_b/c", "_/ConfigMap/a/b_c",
		"_/Secret/_/Web", "_/Secret/_/web",
		"_/ConfigMap/_/" + long + "1", "_/ConfigMap/_/" + long + "2",
		"_/ConfigMap/_/café",
		"_/ConfigMap/_/a:b", "_/ConfigMap/_/a\nb", "./x/y/z",
	})
	want := []string{
		"apps_Deployment_prod_web",
		"1",
		"__ConfigMap_a_b_c-d21be689a6", "__ConfigMap_a_b_c-4274c6ecc7",
		"__Secret___Web-" + idHash("_/Secret/_/Web"), "__Secret___web-" + idHash("_/Secret/_/web"),
		"__ConfigMap___" + strings.Repeat("x", 175) + "-" + idHash("_/ConfigMap/_/"+long+"1"),
		"__ConfigMap___" + strings.Repeat("x", 175) + "-" + idHash("_/ConfigMap/_/"+long+"2"),
		"__ConfigMap___café-" + idHash("_/ConfigMap/_/café"),
		"9", "10", "11",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	seen := map[string]bool{}
	for _, n := range got {
		if seen[strings.ToLower(n)] {
			t.Errorf("%s twice", n)
		}
		seen[strings.ToLower(n)] = true
		if len(n)+len(".json") > 255 {
			t.Errorf("%s: %d bytes", n, len(n))
		}
	}
}
