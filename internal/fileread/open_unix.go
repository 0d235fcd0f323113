//go:build unix

package fileread

import (
	"os"
	"syscall"
)

// openNoBlock opens name for reading without waiting: a named pipe with no
// writer opens at once (and is then refused by its mode), where a plain
// open would wait for a writer.
func openNoBlock(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
