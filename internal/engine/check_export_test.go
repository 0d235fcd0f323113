package engine

import (
	"context"
	"path/filepath"
	"sort"
	"testing"
)

// CompileTimeError is the error a render of the file at path reports
// before it evaluates any expression (a YAML error, a directive error of
// the compiler, a limit on the template's size or depth), or nil when a
// render gets as far as evaluating. For the test that holds check to
// render's findings.
func CompileTimeError(ctx context.Context, e *Engine, path string) error {
	src, err := e.LoadFile(ctx, path)
	if err != nil {
		return err
	}
	return e.w.CompileTimeError(ctx, src)
}

// GoldenDir holds the golden corpus, one folder per directive or area of
// the language.
const GoldenDir = goldenDir

// goldenDir is GoldenDir for the tests of package engine.
const goldenDir = "testdata/golden"

// CasePaths gives the txtar archives in dir and in its folders, in path
// order: the golden corpus (GoldenDir) and the hostile one.
func CasePaths(t testing.TB, dir string) []string {
	t.Helper()
	var paths []string
	for _, pattern := range []string{"*.txtar", "*/*.txtar"} {
		p, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p...)
	}
	sort.Strings(paths)
	return paths
}
