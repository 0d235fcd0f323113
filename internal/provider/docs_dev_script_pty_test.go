//go:build linux

package provider

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair: the controlling side, which reads
// what is written to the terminal, and the terminal itself.
func openPTY(t *testing.T) (control, term *os.File) {
	t.Helper()
	control, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, control.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatal(e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, control.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatal(e)
	}
	term, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return control, term
}

// On a terminal terraform keeps its colours, unless CI=true.
func TestDevScript_terraformKeepsColoursOnATerminalOutsideCI(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("# empty\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ci, want string
	}{
		{"", "plan\n-input=false\n"},
		{"true", "plan\n-no-color\n-input=false\n"},
	} {
		control, term := openPTY(t)
		cmd := exec.Command("scripts/with-dev-provider.sh", dir, "terraform", "plan", "-input=false")
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(),
			"TF_ACC_TERRAFORM_PATH="+fakeTerraform(t),
			"CELYAML_PROVIDER_DIR="+t.TempDir(),
			"CI="+tc.ci,
		)
		var stderr bytes.Buffer
		cmd.Stdout = term
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		term.Close()
		var out bytes.Buffer
		_, _ = io.Copy(&out, control) // ends with EIO once the terminal is closed by all
		if err := cmd.Wait(); err != nil {
			t.Fatalf("CI=%q: %v\n%s", tc.ci, err, stderr.String())
		}
		control.Close()
		got := strings.ReplaceAll(out.String(), "\r\n", "\n")
		if got != tc.want {
			t.Errorf("CI=%q on a terminal: terraform got\n%q\nwant\n%q", tc.ci, got, tc.want)
		}
	}
}
