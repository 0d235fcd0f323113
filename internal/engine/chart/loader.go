package chart

import (
	"context"
	"errors"
	"io/fs"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/loader"
	"github.com/celyaml/terraform-provider-celyaml/internal/fileread"
)

// LoaderFiles reads a chart through the engine's Loader, as $include
// reads a file: its roots apply, every file is regular, and the chart's
// files together are at most maxBytes (MaxTemplateBytes). A Loader that
// lists folders (loader.DirReader) can load a chart folder, and one that
// resolves symlinks (loader.SymlinkResolver) follows those that stay in
// the chart; any Loader can load a .tgz.
func LoaderFiles(ctx context.Context, l loader.Loader, maxBytes int) Files {
	f := Files{
		MaxBytes: maxBytes,
		ReadFile: func(name string, limit int) ([]byte, error) {
			b, err := l.ReadFile(ctx, name, limit)
			if errors.Is(err, fileread.ErrTooLarge) {
				return nil, ErrTooLarge
			}
			if err != nil {
				return nil, errors.New(loader.ErrText(err))
			}
			return b, nil
		},
	}
	if dr, ok := l.(loader.DirReader); ok {
		f.ReadDir = func(name string) ([]fs.DirEntry, error) { return dr.ReadDir(ctx, name) }
	}
	if sr, ok := l.(loader.SymlinkResolver); ok {
		f.Real = sr.RealPath
	}
	return f
}
