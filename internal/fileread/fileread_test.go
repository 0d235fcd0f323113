//go:build unix

package fileread

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const limit = 1 << 20

// readErr is the text of Read's error on path, or "" when it read.
func readErr(t *testing.T, path string) string {
	t.Helper()
	b, err := Read(context.Background(), path, limit)
	if err == nil {
		if len(b) > limit {
			t.Errorf("%s: read %d bytes, over the limit", path, len(b))
		}
		return ""
	}
	return err.Error()
}

// What is not a regular file is refused by name, before a byte is read:
// devices that never end, a directory, a named pipe with no writer (at
// once, not after waiting for one) and a socket.
func TestRead_refusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for path, want := range map[string]string{
		"/dev/zero":    "/dev/zero: not a regular file but a device",
		"/dev/urandom": "/dev/urandom: not a regular file but a device",
		dir:            dir + ": not a regular file but a directory",
		fifo:           fifo + ": not a regular file but a named pipe (FIFO)",
		sock:           sock + ": not a regular file but a socket",
	} {
		done := make(chan string, 1)
		go func() { done <- readErr(t, path) }()
		select {
		case got := <-done:
			if got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no answer in 10 s: the read blocked", path)
		}
	}
}

// The error wraps ErrNotRegular or ErrTooLarge, for callers that word it
// their own way.
func TestRead_errorsWrapTheirKind(t *testing.T) {
	_, err := Read(context.Background(), "/dev/null", limit)
	var fe *Error
	if !errors.Is(err, ErrNotRegular) || !errors.As(err, &fe) || fe.Path != "/dev/null" {
		t.Errorf("/dev/null: %v", err)
	}
	big := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(big, make([]byte, 11), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Read(context.Background(), big, 10)
	if !errors.Is(err, ErrTooLarge) || !errors.As(err, &fe) || fe.Size != 11 || fe.Limit != 10 {
		t.Errorf("big: %v", err)
	}
}

// A file over the limit is refused by its size, before it is read: a
// sparse file of 1 GiB holds no real bytes and is refused all the same.
func TestRead_refusesAFileOverTheLimitByItsSize(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 1<<30); err != nil {
		t.Fatal(err)
	}
	want := big + ": larger than 1048576 bytes (it is 1073741824 bytes)"
	if got := readErr(t, big); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Exactly the limit is allowed.
	at := filepath.Join(t.TempDir(), "at.yaml")
	if err := os.WriteFile(at, make([]byte, limit), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := readErr(t, at); got != "" {
		t.Errorf("a file of exactly the limit: %s", got)
	}
}

// A symbolic link to a regular file is read, as Terraform's file() reads
// it; a link to a named pipe is refused as the pipe is.
func TestRead_followsLinksToRegularFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "t.yaml")
	if err := os.WriteFile(target, []byte("a: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if b, err := Read(context.Background(), link, limit); err != nil || string(b) != "a: 1\n" {
		t.Errorf("link: %q %v", b, err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	fifoLink := filepath.Join(dir, "fifo-link")
	if err := os.Symlink(fifo, fifoLink); err != nil {
		t.Fatal(err)
	}
	if got, want := readErr(t, fifoLink), fifoLink+": not a regular file but a named pipe (FIFO)"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// The open never waits on a named pipe: one that appears between the
// look and the open (here: opened directly) opens at once and is then
// refused by the open file's mode.
func TestOpenNoBlock_doesNotWaitOnANamedPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := openNoBlock(fifo)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := check(fifo, st, limit).Error(), fifo+": not a regular file but a named pipe (FIFO)"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// A cancelled read stops: before it starts, between chunks, and on a
// stream that never ends or never sends.
func TestRead_stopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Read(ctx, "/etc/hostname", limit); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	r := &cancelAfterOne{cancel: cancel}
	if _, err := readAll(ctx, "r", r, 0, 1<<30); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled while reading: %v", err)
	}
	if r.reads != 1 {
		t.Errorf("read %d chunks after the cancel", r.reads-1)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel = context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := ReadStream(ctx, "standard input", pr, limit)
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("stream: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a cancelled read of a silent stream did not return in 10 s")
	}
}

// A stream is held to the limit too.
func TestReadStream_boundsTheStream(t *testing.T) {
	_, err := ReadStream(context.Background(), "standard input", strings.NewReader(strings.Repeat("x", 11)), 10)
	if err == nil || err.Error() != "standard input: larger than 10 bytes" {
		t.Errorf("got %v", err)
	}
	b, err := ReadStream(context.Background(), "standard input", strings.NewReader("abc"), 10)
	if err != nil || string(b) != "abc" {
		t.Errorf("got %q %v", b, err)
	}
}

// cancelAfterOne is a reader that never ends and cancels its context on
// its first read.
type cancelAfterOne struct {
	cancel func()
	reads  int
}

func (r *cancelAfterOne) Read(p []byte) (int, error) {
	r.reads++
	r.cancel()
	return len(p), nil
}
