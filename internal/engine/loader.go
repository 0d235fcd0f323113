package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Loader reads template files for RenderFile and $include. Paths are OS
// paths: absolute, or relative to the process's working directory.
type Loader interface {
	ReadFile(name string) ([]byte, error)
}

// OSLoader reads from the operating system's file system.
//
// With no Roots it reads any file the process can read, the same trust
// model as Terraform's file() and templatefile(). With Roots set, every file
// must resolve, after following symlinks, inside one of them; anything else
// is refused.
type OSLoader struct {
	Roots []string
}

// ErrOutsideRoots is returned by OSLoader for a file outside its roots.
var ErrOutsideRoots = errors.New("file is outside the allowed include roots")

// ReadFile implements Loader.
func (l OSLoader) ReadFile(name string) ([]byte, error) {
	if len(l.Roots) > 0 {
		if err := l.confine(name); err != nil {
			return nil, err
		}
	}
	return os.ReadFile(name)
}

func (l OSLoader) confine(name string) error {
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		return err
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return err
	}
	for _, r := range l.Roots {
		root, err := filepath.EvalSymlinks(r)
		if err != nil {
			continue
		}
		if root, err = filepath.Abs(root); err != nil {
			continue
		}
		rel, err := filepath.Rel(root, real)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return nil
		}
	}
	return ErrOutsideRoots
}

// FSLoader reads from an fs.FS, for tests and embedded templates. OS paths
// are turned into slash paths relative to the FS root; a path that leaves
// the root is refused.
type FSLoader struct {
	FS fs.FS
}

// ReadFile implements Loader.
func (l FSLoader) ReadFile(name string) ([]byte, error) {
	p := path.Clean(filepath.ToSlash(name))
	p = strings.TrimPrefix(p, "/")
	if !fs.ValidPath(p) {
		return nil, fmt.Errorf("open %s: %w", name, fs.ErrInvalid)
	}
	return fs.ReadFile(l.FS, p)
}
