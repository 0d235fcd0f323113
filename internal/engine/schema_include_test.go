package engine

import (
	"context"
	"io/fs"
	"sync/atomic"
	"testing"
	"testing/fstest"
)

// countingFS counts the reads of each file.
type countingFS struct {
	fstest.MapFS
	reads map[string]*atomic.Int32
}

func (c countingFS) Open(name string) (fs.File, error) {
	if n := c.reads[name]; n != nil {
		n.Add(1)
	}
	return c.MapFS.Open(name)
}

// A schema file is read once per render however often its $schema runs
// (here once per iteration).
func TestSchemaInclude_readOncePerRender(t *testing.T) {
	reads := &atomic.Int32{}
	fsys := countingFS{MapFS: fstest.MapFS{
		"t.yaml": {Data: []byte(`items:
  - $for: "i in [1, 2, 3]"
    $do:
      $schema:
        i: {$include: i.schema.json}
      $eval: "${{ i }}"
`)},
		"i.schema.json": {Data: []byte(`{"type": "integer", "minimum": 1}`)},
	}, reads: map[string]*atomic.Int32{"i.schema.json": reads}}
	e := New(Options{Loader: FSLoader{FS: fsys}})
	for range 2 {
		src, err := e.LoadFile(context.Background(), "t.yaml")
		if err != nil {
			t.Fatal(err)
		}
		docs, err := e.Render(context.Background(), src, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(docs) != 1 {
			t.Fatalf("got %d documents", len(docs))
		}
	}
	if got := reads.Load(); got != 2 {
		t.Errorf("the schema file was read %d times in two renders, want 2", got)
	}
}
