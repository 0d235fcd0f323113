package fileread

import (
	"context"
	"testing"
)

// A file that says it holds nothing (as /proc's do) is still held to the
// limit by the read itself.
func TestRead_boundsAFileLargerThanItsSizeSays(t *testing.T) {
	want := "/proc/self/maps: larger than 10 bytes"
	if _, err := Read(context.Background(), "/proc/self/maps", 10); err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	b, err := Read(context.Background(), "/proc/self/environ", limit)
	if err != nil || len(b) == 0 {
		t.Errorf("/proc/self/environ: %d bytes, %v", len(b), err)
	}
}
