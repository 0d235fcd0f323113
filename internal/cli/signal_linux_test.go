package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// TestMain makes the test binary the celyaml command when
// TestRun_SIGINTStopsTheCommand starts it as a process of its own. The
// tests' --schemas cache is a folder of their own, not the user's.
func TestMain(m *testing.M) {
	if os.Getenv("CELYAML_HELPER_PROCESS") == "1" {
		args := strings.Split(os.Getenv("CELYAML_HELPER_ARGS"), "\x1f")
		os.Exit(Run(args, os.Stdin, os.Stdout, os.Stderr))
	}
	cache, err := os.MkdirTemp("", "celyaml-cli-test-cache")
	if err == nil {
		_ = os.Setenv("CELYAML_CACHE", cache)
	}
	code := m.Run()
	if err == nil {
		_ = os.RemoveAll(cache)
	}
	os.Exit(code)
}

// pending is how many bytes wait unread in the pipe whose end f is.
func pending(t *testing.T, f *os.File) int {
	t.Helper()
	var n int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); errno != 0 {
		t.Fatal(errno)
	}
	return int(n)
}

// Ctrl-C stops a command that waits on its standard input: the real
// SIGINT, to a real process, which then says so and exits 130 without
// touching --output-dir.
func TestRun_SIGINTStopsTheCommand(t *testing.T) {
	dir := t.TempDir()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	cmd := exec.Command(os.Args[0])
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CELYAML_HELPER_PROCESS=1", "CELYAML_HELPER_ARGS=render\x1f-\x1f--output-dir\x1fout")
	cmd.Stdin = pr
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	// The command reads standard input only after it has taken over
	// SIGINT: once it has read these bytes, the signal is its to handle.
	if _, err := pw.Write([]byte("a: ")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for pending(t, pw) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the command did not read its standard input in 20 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the command did not stop in 20 s after SIGINT")
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Errorf("exit: %v, want code %d", err, exitInterrupted)
	}
	if stderr.String() != "celyaml: interrupted\n" || stdout.Len() != 0 {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
	if _, err := os.Lstat(dir + "/out"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("out: %v", err)
	}
}
