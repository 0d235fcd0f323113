package loader

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// DirReader is a Loader that also lists folders: what a $chart of a
// chart folder needs (reference §11). OSLoader and FSLoader are; a Loader
// that is not can still load a chart archive (.tgz).
type DirReader interface {
	ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error)
}

// SymlinkResolver is a Loader that resolves symlinks, so that a chart
// folder's symlinks can be followed when they stay inside the chart.
// Without it a chart folder holding a symlink is refused.
type SymlinkResolver interface {
	// RealPath resolves name's symlinks; a path outside the roots is
	// ErrOutsideRoots.
	RealPath(name string) (string, error)
}

// ReadDir implements DirReader for an fs.FS.
func (l FSLoader) ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := path.Clean(filepath.ToSlash(name))
	p = strings.TrimPrefix(p, "/")
	if !fs.ValidPath(p) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	return fs.ReadDir(l.FS, p)
}

// ReadDir implements DirReader, with the roots checked as ReadFile checks
// them.
func (l OSLoader) ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(l.Roots) > 0 {
		resolved, err := l.RealPath(name)
		if err != nil {
			return nil, err
		}
		name = resolved
	}
	return os.ReadDir(name)
}

// RealPath implements DirReader.
func (l OSLoader) RealPath(name string) (string, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", err
	}
	if len(l.Roots) > 0 && !l.inside(abs) {
		return "", ErrOutsideRoots
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	if resolved, err = filepath.Abs(resolved); err != nil {
		return "", err
	}
	if len(l.Roots) > 0 && !l.inside(resolved) {
		return "", ErrOutsideRoots
	}
	return resolved, nil
}
