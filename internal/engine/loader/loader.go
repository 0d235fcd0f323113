package loader

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/fileread"
)

// Loader reads template files for RenderFile and $include. Paths are OS
// paths: absolute, or relative to the process's working directory. A
// Loader reads only regular files, at most limit bytes (the engine passes
// MaxTemplateBytes; a larger file is a *fileread.Error wrapping
// fileread.ErrTooLarge), and stops when ctx is cancelled.
type Loader interface {
	ReadFile(ctx context.Context, name string, limit int) ([]byte, error)
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

// ReadFile implements Loader, through fileread.Read.
func (l OSLoader) ReadFile(ctx context.Context, name string, limit int) ([]byte, error) {
	if len(l.Roots) == 0 {
		return fileread.Read(ctx, name, limit)
	}
	// A path outside the roots is refused before anything is looked up,
	// so refusals do not reveal which files exist.
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	if !l.inside(abs) {
		return nil, ErrOutsideRoots
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	if resolved, err = filepath.Abs(resolved); err != nil {
		return nil, err
	}
	if !l.inside(resolved) {
		return nil, ErrOutsideRoots
	}
	// Read the resolved path, not name, so a symlink swapped in after the
	// check is not followed.
	return fileread.Read(ctx, resolved, limit)
}

// inside reports whether the absolute path resolved is inside one of the roots.
func (l OSLoader) inside(resolved string) bool {
	return l.confine(resolved) == nil
}

func (l OSLoader) confine(resolved string) error {
	for _, r := range l.Roots {
		// Compare with the root as given and with the root's own
		// symlinks resolved, since the lexical check comes first.
		cands := make([]string, 0, 2)
		if abs, err := filepath.Abs(r); err == nil {
			cands = append(cands, abs)
		}
		if root, err := filepath.EvalSymlinks(r); err == nil {
			if root, err = filepath.Abs(root); err == nil {
				cands = append(cands, root)
			}
		}
		for _, root := range cands {
			rel, err := filepath.Rel(root, resolved)
			if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
				return nil
			}
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

// ReadFile implements Loader, through fileread.ReadFS.
func (l FSLoader) ReadFile(ctx context.Context, name string, limit int) ([]byte, error) {
	p := path.Clean(filepath.ToSlash(name))
	p = strings.TrimPrefix(p, "/")
	if !fs.ValidPath(p) {
		return nil, fmt.Errorf("open %s: %w", name, fs.ErrInvalid)
	}
	return fileread.ReadFS(ctx, l.FS, p, limit)
}

// ErrText says why a file could not be read, without its contents.
func ErrText(err error) string {
	var fe *fileread.Error
	switch {
	case errors.As(err, &fe):
		return fe.Reason
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "cancelled: " + err.Error()
	case errors.Is(err, fs.ErrNotExist):
		return "file does not exist"
	case errors.Is(err, ErrOutsideRoots):
		return ErrOutsideRoots.Error()
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
