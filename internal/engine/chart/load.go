package chart

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"helm.sh/helm/v4/pkg/chart/loader/archive"
	chartv2 "helm.sh/helm/v4/pkg/chart/v2"
	chartloader "helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/ignore"
)

// DefaultMaxBytes caps a chart's files together when Files.MaxBytes is 0.
const DefaultMaxBytes = 256 << 20

// maxDirDepth caps how deep a chart directory may nest.
const maxDirDepth = 64

// Files is how Load reads a chart.
type Files struct {
	// ReadFile reads a regular file of at most limit bytes.
	ReadFile func(name string, limit int) ([]byte, error)
	// ReadDir lists a directory; nil: only archives can be loaded.
	ReadDir func(name string) ([]fs.DirEntry, error)
	// Real resolves a path's symlinks; nil: a chart directory holding a
	// symlink is refused.
	Real func(name string) (string, error)
	// MaxBytes caps the chart's files together, decompressed (0:
	// DefaultMaxBytes).
	MaxBytes int
}

// OSFiles reads the process's file system with a budget of maxBytes.
func OSFiles(maxBytes int) Files {
	return Files{
		ReadFile: func(name string, limit int) ([]byte, error) {
			f, err := os.Open(name)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			fi, err := f.Stat()
			if err != nil {
				return nil, err
			}
			if !fi.Mode().IsRegular() {
				return nil, fmt.Errorf("%s is not a regular file", name)
			}
			b, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
			if err == nil && len(b) > limit {
				return nil, ErrTooLarge
			}
			return b, err
		},
		ReadDir: os.ReadDir,
		Real: func(name string) (string, error) {
			r, err := filepath.EvalSymlinks(name)
			if err != nil {
				return "", err
			}
			return filepath.Abs(r)
		},
		MaxBytes: maxBytes,
	}
}

// ErrTooLarge is what Files.ReadFile returns for a file past its limit.
var ErrTooLarge = errors.New("file is larger than the limit")

// Chart is a loaded chart: its files, as Helm's loader reads them. Each
// Render loads them again into Helm's chart, which rendering changes
// (dependencies enabled, values imported), so a Chart is safe to render
// many times and from several goroutines.
type Chart struct {
	files []*archive.BufferedFile
	meta  *chartv2.Chart // loaded once, for Name, Defaults and Schema; never rendered
}

// Name is the chart's name (Chart.yaml's name).
func (c *Chart) Name() string { return c.meta.Name() }

// Meta is Helm's chart as loaded, with its subcharts, for reading what
// the chart declares (check's $values check): never render or change it.
func (c *Chart) Meta() *chartv2.Chart { return c.meta }

// Error is a chart that cannot be loaded or rendered. File and Line, when
// known, say where in the chart (File is chart-relative, such as
// "mychart/templates/deployment.yaml"); Values marks an error of the
// values (values.schema.json), which the engine points at `$values`.
type Error struct {
	File   string
	Line   int
	Values bool
	// Limit names the engine option a chart passed ("MaxTemplateBytes",
	// "MaxOutputBytes"), or "".
	Limit string
	Msg   string
}

func (e *Error) Error() string { return e.Msg }

func errorf(format string, a ...any) *Error { return &Error{Msg: fmt.Sprintf(format, a...)} }

func limitf(limit, format string, a ...any) *Error {
	return &Error{Limit: limit, Msg: fmt.Sprintf(format, a...)}
}

// Load reads the chart at name, a chart directory or a .tgz archive.
func Load(name string, f Files) (*Chart, error) {
	if f.MaxBytes <= 0 {
		f.MaxBytes = DefaultMaxBytes
	}
	budget := f.MaxBytes
	var files []*archive.BufferedFile
	var err error
	if f.ReadDir != nil {
		if _, derr := f.ReadDir(name); derr == nil {
			files, err = loadDir(name, f, &budget)
			if err != nil {
				return nil, err
			}
			return load(files)
		}
	}
	data, err := f.ReadFile(name, budget)
	if errors.Is(err, ErrTooLarge) {
		return nil, limitf("MaxTemplateBytes", "the chart %s is larger than MaxTemplateBytes (%d bytes)", name, f.MaxBytes)
	}
	if err != nil {
		return nil, err
	}
	budget -= len(data)
	files, err = loadArchive(data, &budget, f.MaxBytes, 0)
	if err != nil {
		return nil, err
	}
	return load(files)
}

func load(files []*archive.BufferedFile) (*Chart, error) {
	c, err := chartloader.LoadFiles(files)
	if err != nil {
		return nil, errorf("%s", err.Error())
	}
	if err := c.Validate(); err != nil {
		return nil, errorf("%s", err.Error())
	}
	// As `helm template` checks before it renders (pkg/cmd's runInstall).
	if t := c.Metadata.Type; t != "" && t != "application" {
		return nil, errorf("%s charts are not installable", t)
	}
	var missing []string
	for _, d := range c.Metadata.Dependencies {
		if !slices.ContainsFunc(c.Dependencies(), func(s *chartv2.Chart) bool { return s.Name() == d.Name }) {
			missing = append(missing, d.Name)
		}
	}
	if len(missing) > 0 {
		return nil, errorf("found in Chart.yaml, but missing in charts/ directory: %s; run `helm dependency build` on the chart first", strings.Join(missing, ", "))
	}
	return &Chart{files: files, meta: c}, nil
}

// loadDir walks a chart directory as Helm's directory loader does
// (.helmignore, the default ignores, regular files only), reading each
// file through f within the budget.
func loadDir(dir string, f Files, budget *int) ([]*archive.BufferedFile, error) {
	rules := ignore.Empty()
	if b, err := f.ReadFile(filepath.Join(dir, ignore.HelmIgnore), *budget); err == nil {
		if rules, err = ignore.Parse(bytes.NewReader(b)); err != nil {
			return nil, errorf("%s: %s", ignore.HelmIgnore, err)
		}
	}
	rules.AddDefaults()
	root := dir
	if f.Real != nil {
		r, err := f.Real(dir)
		if err != nil {
			return nil, err
		}
		root = r
	}
	w := &dirWalk{f: f, rules: rules, budget: budget, root: root, max: f.MaxBytes, seen: map[string]bool{root: true}}
	if err := w.walk(dir, "", 0); err != nil {
		return nil, err
	}
	return w.files, nil
}

type dirWalk struct {
	f      Files
	rules  *ignore.Rules
	budget *int
	max    int
	root   string
	seen   map[string]bool // real directories on the walk, for symlink loops
	files  []*archive.BufferedFile
}

func (w *dirWalk) walk(dir, rel string, depth int) error {
	if depth > maxDirDepth {
		return errorf("the chart's folders nest deeper than %d at %s", maxDirDepth, rel)
	}
	entries, err := w.f.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		full := filepath.Join(dir, e.Name())
		n := path.Join(rel, e.Name())
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			if w.f.Real == nil {
				return errorf("the chart holds a symlink, %s, which this loader cannot follow", n)
			}
			target, err := w.f.Real(full)
			if err != nil {
				return errorf("the chart's symlink %s cannot be resolved: %s", n, errText(err))
			}
			if !inside(w.root, target) {
				return errorf("the chart's symlink %s leaves the chart's folder; a chart reads only its own files", n)
			}
			_, derr := w.f.ReadDir(target)
			isDir = derr == nil
			if isDir && w.seen[target] {
				return errorf("the chart's symlink %s loops back to a folder that contains it", n)
			}
			if isDir {
				w.seen[target] = true
			}
		} else if !isDir && !e.Type().IsRegular() {
			return errorf("the chart holds %s, which is not a regular file", n)
		}
		fi := entryInfo{name: e.Name(), dir: isDir}
		if w.rules.Ignore(n, fi) {
			continue
		}
		if isDir {
			if err := w.walk(full, n, depth+1); err != nil {
				return err
			}
			continue
		}
		data, err := w.f.ReadFile(full, *w.budget)
		if errors.Is(err, ErrTooLarge) || (err == nil && len(data) > *w.budget) {
			return limitf("MaxTemplateBytes", "the chart is larger than MaxTemplateBytes (%d bytes) at %s", w.max, n)
		}
		if err != nil {
			return errorf("cannot read the chart's file %s: %s", n, errText(err))
		}
		*w.budget -= len(data)
		w.files = append(w.files, &archive.BufferedFile{Name: n, Data: bytes.TrimPrefix(data, utf8bom)})
	}
	return nil
}

var utf8bom = []byte{0xEF, 0xBB, 0xBF}

// inside reports whether target is root or below it.
func inside(root, target string) bool {
	r, err := filepath.Rel(root, target)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// entryInfo is the fs.FileInfo .helmignore's rules read: a name and
// whether it is a folder.
type entryInfo struct {
	name string
	dir  bool
}

func (i entryInfo) Name() string { return i.name }
func (i entryInfo) Size() int64  { return 0 }
func (i entryInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir
	}
	return 0
}
func (i entryInfo) ModTime() time.Time { return time.Time{} }
func (i entryInfo) IsDir() bool        { return i.dir }
func (i entryInfo) Sys() any           { return nil }

// maxArchiveNesting caps subchart archives inside subchart archives.
const maxArchiveNesting = 16

// loadArchive reads a chart archive's files as Helm's archive loader
// does, counting every decompressed byte (tar headers included, and the
// subchart archives under charts/, decompressed in turn) against budget,
// so that a small archive cannot expand past the limit.
func loadArchive(data []byte, budget *int, maxBytes, nesting int) ([]*archive.BufferedFile, error) {
	if nesting > maxArchiveNesting {
		return nil, errorf("the chart's subchart archives nest deeper than %d", maxArchiveNesting)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, errorf("the chart is neither a folder nor a gzip-compressed archive (.tgz): %s", err)
	}
	defer zr.Close()
	tooLarge := func() error {
		return limitf("MaxTemplateBytes", "the chart is larger than MaxTemplateBytes (%d bytes) once decompressed", maxBytes)
	}
	tr := tar.NewReader(zr)
	var files []*archive.BufferedFile
	for {
		hd, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, errorf("the chart archive cannot be read: %s", err)
		}
		if *budget -= 512; *budget < 0 {
			return nil, tooLarge()
		}
		switch hd.Typeflag {
		case tar.TypeReg:
		case tar.TypeDir, tar.TypeXGlobalHeader, tar.TypeXHeader:
			continue
		default:
			return nil, errorf("the chart archive holds %s, which is not a regular file (links are refused)", hd.Name)
		}
		if hd.Size > int64(*budget) {
			return nil, tooLarge()
		}
		b, err := io.ReadAll(io.LimitReader(tr, int64(*budget)+1))
		if err != nil {
			return nil, errorf("the chart archive cannot be read: %s", err)
		}
		if len(b) > *budget {
			return nil, tooLarge()
		}
		*budget -= len(b)
		name := strings.ReplaceAll(hd.Name, "\\", "/")
		parts := strings.SplitN(name, "/", 2)
		if len(parts) < 2 {
			return nil, errorf("the chart archive holds %s outside the chart's folder", hd.Name)
		}
		n := path.Clean(parts[1])
		if path.IsAbs(parts[1]) || n == "." || n == ".." || strings.HasPrefix(n, "../") {
			return nil, errorf("the chart archive holds %s, which leaves the chart's folder", hd.Name)
		}
		if strings.HasPrefix(n, "charts/") && strings.HasSuffix(n, ".tgz") && strings.Count(n, "/") == 1 {
			// Helm decompresses it again when loading; count it now.
			if _, err := loadArchive(b, budget, maxBytes, nesting+1); err != nil {
				return nil, err
			}
		}
		files = append(files, &archive.BufferedFile{Name: n, ModTime: hd.ModTime, Data: bytes.TrimPrefix(b, utf8bom)})
	}
	if len(files) == 0 {
		return nil, errorf("the chart archive holds no files")
	}
	return files, nil
}
