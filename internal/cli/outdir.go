package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// --output-dir: afterwards DIR holds exactly this render's files, one per
// document, or, when anything fails, exactly what it held before. The
// files are written into a new directory beside DIR, which then takes
// DIR's place; the old directory is removed without following anything
// in it. A symbolic link planted in DIR is never written through: it is
// removed with the rest. Names are chosen so that no two documents share
// a file, on a file system that ignores case too (docFileNames).

// maxNameBytes is where a file name is cut: file systems allow 255 bytes.
const maxNameBytes = 200

// createFile creates a new file for writing; a test swaps it to make a
// write fail.
var createFile = func(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644) //nolint:gosec // a render's output files are world-readable, as kubectl's are
}

// writeDir writes the documents into dir, replacing it as a whole.
func (r *rendered) writeDir(ctx context.Context, dir, format string) error {
	parent, base := filepath.Split(filepath.Clean(dir))
	if base == "." || base == ".." || base == "" || base == string(filepath.Separator) {
		return fmt.Errorf("--output-dir %s: name a directory of its own (it is replaced as a whole), not . or .. or the root", dir)
	}
	if parent == "" {
		parent = "."
	}
	old, err := replaceable(dir)
	if err != nil {
		return err
	}
	if old == nil {
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return fmt.Errorf("--output-dir: %w", err)
		}
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".new-")
	if err != nil {
		return fmt.Errorf("--output-dir: %w", err)
	}
	done := false
	defer func() {
		if !done {
			_ = os.RemoveAll(tmp)
		}
	}()
	names := docFileNames(r.ids)
	for i, d := range r.docs {
		if err := ctx.Err(); err != nil {
			return err
		}
		body := r.stream[r.spans[i][0]:r.spans[i][1]]
		if format == "json" {
			if body, err = engine.AppendJSON(nil, d, false); err != nil {
				return err
			}
		}
		if err := writeNew(filepath.Join(tmp, names[i]+"."+format), endLine(body)); err != nil {
			return fmt.Errorf("--output-dir: %w", err)
		}
	}
	mode := fs.FileMode(0o755)
	if old != nil {
		mode = old.Mode().Perm()
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return fmt.Errorf("--output-dir: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := swapIn(tmp, dir, old != nil); err != nil {
		return fmt.Errorf("--output-dir: %w", err)
	}
	done = true
	return nil
}

// writeNew writes body to a file that must not exist yet.
func writeNew(name string, body []byte) error {
	f, err := createFile(name)
	if err != nil {
		return err
	}
	if _, err := f.Write(body); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// replaceable looks at dir before a render replaces it: nothing there
// (nil), or a directory that holds only what a render writes (.yaml and
// .json files, or symbolic links planted in their place). A symbolic link
// as dir itself, a file, or a directory holding anything else is refused,
// so that a mistyped --output-dir (a home directory, a source tree) is
// never emptied.
func replaceable(dir string) (fs.FileInfo, error) {
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--output-dir: %w", err)
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("--output-dir %s is a symbolic link; nothing is written through one: give the directory itself", dir)
	case !st.IsDir():
		return nil, fmt.Errorf("--output-dir %s exists and is not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("--output-dir: %w", err)
	}
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if (e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0) && (ext == ".yaml" || ext == ".json") {
			continue
		}
		return nil, fmt.Errorf("--output-dir %s holds %s, which a render does not write; it replaces the directory as a whole, so it must hold only .yaml and .json files: remove it or choose another directory", dir, strconv.Quote(e.Name()))
	}
	return st, nil
}

// swapIn puts the directory tmp in dir's place. With an old dir, it is
// moved aside first and removed after (links in it are removed, never
// followed); if tmp cannot take its place, it is moved back.
func swapIn(tmp, dir string, exists bool) error {
	if !exists {
		return os.Rename(tmp, dir)
	}
	parent, base := filepath.Split(filepath.Clean(dir))
	if parent == "" {
		parent = "."
	}
	aside, err := os.MkdirTemp(parent, "."+base+".old-")
	if err != nil {
		return err
	}
	old := filepath.Join(aside, base)
	if err := os.Rename(dir, old); err != nil {
		_ = os.Remove(aside)
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if back := os.Rename(old, dir); back != nil {
			return fmt.Errorf("%w; the old directory is kept at %s", err, old)
		}
		_ = os.Remove(aside)
		return err
	}
	return os.RemoveAll(aside)
}

// docFileNames are the base names of the documents' files (without the
// extension), one per document, no two equal even ignoring case:
//
//   - a document with a manifest ID is named after it with each "/"
//     written "_" (apps/Deployment/prod/web: apps_Deployment_prod_web);
//   - a document without one, or whose ID holds a character unsafe in a
//     file name (\ : * ? " < > |, a control character) or starts with ".",
//     by its index (2);
//   - when two documents would get names equal ignoring case (the IDs
//     _/ConfigMap/a_b/c and _/ConfigMap/a/b_c both give
//     __ConfigMap_a_b_c), each of them gets "-" and the first 10 hex
//     digits of its ID's SHA-256 added, so a name depends only on its own
//     ID; so does a name with a character outside ASCII (file systems
//     fold and normalise those each their own way), and a name longer
//     than 200 bytes, cut first.
//
// Index names hold no "_" and ID names at least three, so the two never
// meet. Should two suffixed names still be equal, the later document's
// name gets its index as well.
func docFileNames(ids []string) []string {
	names := make([]string, len(ids))
	seen := make(map[string]int, len(ids))
	for i, id := range ids {
		names[i] = idFileName(i, id)
		seen[strings.ToLower(names[i])]++
	}
	taken := make(map[string]bool, len(ids))
	for i, id := range ids {
		if seen[strings.ToLower(names[i])] > 1 || len(names[i]) > maxNameBytes || !ascii(names[i]) {
			names[i] = cut(names[i], maxNameBytes-11) + "-" + idHash(id)
		}
		if taken[strings.ToLower(names[i])] {
			names[i] += "-" + strconv.Itoa(i)
		}
		taken[strings.ToLower(names[i])] = true
	}
	return names
}

// idFileName is document i's name before collisions are looked at.
func idFileName(i int, id string) string {
	if id == "" || strings.HasPrefix(id, ".") || strings.ContainsFunc(id, func(r rune) bool {
		return r < 0x20 || r == 0x7f || strings.ContainsRune("\\:*?\"<>|", r)
	}) {
		return strconv.Itoa(i)
	}
	return strings.ReplaceAll(id, "/", "_")
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// idHash is the first 10 hex digits of id's SHA-256.
func idHash(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:5])
}

// cut is s cut to at most n bytes, on a character boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n]
}
