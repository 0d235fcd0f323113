package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// LoadChart gives check and the editor a chart's defaults and schema,
// read through the engine's Loader as a $chart reads it (reference §11).
func TestLoadChart_readsThroughTheLoader(t *testing.T) {
	for name, opts := range map[string]Options{
		"os": DefaultOptions(),
		"fs": {Loader: FSLoader{FS: os.DirFS(".")}},
	} {
		c, err := New(opts).LoadChart(context.Background(), "testdata/charts/demo")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		keys := make([]string, 0)
		for k := range c.Defaults() {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if c.Name() != "demo" || !slices.Equal(keys, []string{"image", "replicaCount", "service", "sub"}) || len(c.Schema()) == 0 {
			t.Fatalf("%s: name %q, default keys %v, schema %d bytes", name, c.Name(), keys, len(c.Schema()))
		}
	}
	abs, err := filepath.Abs("testdata/charts/demo")
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions()
	opts.Loader = OSLoader{Roots: []string{t.TempDir()}}
	if _, err := New(opts).LoadChart(context.Background(), abs); err == nil || err.Error() != ErrOutsideRoots.Error() {
		t.Fatalf("outside the roots: got %v", err)
	}
}
