// Package fileread is the one way the engine, the provider and the
// command line read a file a template or the command line names: only a
// regular file (a symbolic link to one included, as Terraform's file()
// follows links), never more than a limit, never blocking on a named pipe,
// and stopping when the context is cancelled.
//
// The file is checked twice: os.Stat before it is opened, so a directory,
// a device, a named pipe or a socket is refused without opening it, and
// the open file again, so a file swapped in between is refused too. The
// open does not block (O_NONBLOCK where the system has it), so a named
// pipe swapped in is refused, not waited on. The size is checked before
// reading, and the read itself stops one byte past the limit, so a file
// that grows while it is read, or that reports no size (/proc), is
// bounded all the same.
package fileread

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
)

// ErrNotRegular is what an Error for a directory, a device, a named pipe or
// a socket wraps.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is what an Error for a file over the limit wraps.
var ErrTooLarge = errors.New("file is larger than the limit")

// Error is a file refused: not a regular file, or larger than the limit.
type Error struct {
	Path string
	// Reason says why, without the path: "not a regular file but a
	// named pipe (FIFO)", or "larger than 16777216 bytes (it is 17000000 bytes)".
	Reason string
	// Size is the file's size when it was too large and its size was
	// known before reading; -1 when the read found it too large (a file
	// that grew, or one under /proc, which says it holds nothing); 0
	// otherwise.
	Size int64
	// Limit is the limit the read was held to.
	Limit int
	err   error
}

func (e *Error) Error() string { return e.Path + ": " + e.Reason }
func (e *Error) Unwrap() error { return e.err }

// chunk is how much is read between two looks at the context.
const chunk = 256 << 10

// Read reads the file at name, at most limit bytes, or fails with an
// *Error (not a regular file, too large), a *fs.PathError from the system,
// or the context's error.
func Read(ctx context.Context, name string, limit int) ([]byte, error) {
	return read(ctx, name, limit, os.Stat, func(name string) (fs.File, error) { return openNoBlock(name) })
}

// ReadFS is Read over an fs.FS, for tests and embedded templates: the same
// checks through fs.Stat and the open file's Stat.
func ReadFS(ctx context.Context, fsys fs.FS, name string, limit int) ([]byte, error) {
	return read(ctx, name, limit,
		func(name string) (fs.FileInfo, error) { return fs.Stat(fsys, name) },
		fsys.Open)
}

// read checks name's kind and size before opening it, opens it, checks the
// open file again (it may have been swapped in between) and reads it.
func read(ctx context.Context, name string, limit int,
	stat func(string) (fs.FileInfo, error), open func(string) (fs.File, error)) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st, err := stat(name)
	if err != nil {
		return nil, err
	}
	if err := check(name, st, limit); err != nil {
		return nil, err
	}
	f, err := open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := check(name, st, limit); err != nil {
		return nil, err
	}
	return readAll(ctx, name, f, st.Size(), limit)
}

// ReadStream reads r, standard input, to its end: at most limit bytes,
// and returning as soon as the context is cancelled, even while a read
// waits (the read is then left to finish on its own: the process is
// ending). what names the stream in the error.
func ReadStream(ctx context.Context, what string, r io.Reader, limit int) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := readAll(context.Background(), what, r, 0, limit)
		done <- result{b, err}
	}()
	select {
	case res := <-done:
		return res.b, res.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// check refuses what is not a regular file, and a regular file whose size
// is over the limit.
func check(name string, st fs.FileInfo, limit int) error {
	m := st.Mode()
	if !m.IsRegular() {
		kind := "an irregular file"
		switch {
		case m.IsDir():
			kind = "a directory"
		case m&fs.ModeNamedPipe != 0:
			kind = "a named pipe (FIFO)"
		case m&fs.ModeSocket != 0:
			kind = "a socket"
		case m&fs.ModeDevice != 0:
			kind = "a device"
		}
		return &Error{Path: name, Reason: "not a regular file but " + kind, err: ErrNotRegular}
	}
	if st.Size() > int64(limit) {
		return tooLarge(name, st.Size(), limit)
	}
	return nil
}

func tooLarge(name string, size int64, limit int) error {
	reason := "larger than " + strconv.Itoa(limit) + " bytes"
	if size >= 0 {
		reason += " (it is " + strconv.FormatInt(size, 10) + " bytes)"
	}
	return &Error{Path: name, Reason: reason, Size: size, Limit: limit, err: ErrTooLarge}
}

// readAll reads r to its end, at most limit bytes, looking at the context
// between chunks. size is what the file said it holds, the first guess
// at the buffer (a file under /proc says 0).
func readAll(ctx context.Context, name string, r io.Reader, size int64, limit int) ([]byte, error) {
	lr := io.LimitReader(r, int64(limit)+1)
	b := make([]byte, 0, min(size, int64(limit))+1)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := lr.Read(b[len(b):min(cap(b), len(b)+chunk)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(b) > limit {
		return nil, tooLarge(name, -1, limit)
	}
	return b, nil
}
