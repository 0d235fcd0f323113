//go:build !unix

package fileread

import "os"

// openNoBlock opens name for reading. Where the system has no O_NONBLOCK
// (Windows) it is a plain open; the mode checks before and after it still
// refuse what is not a regular file.
func openNoBlock(name string) (*os.File, error) {
	return os.Open(name)
}
