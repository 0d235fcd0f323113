package engine

import (
	"context"
	"io/fs"
	"sync/atomic"
	"testing"
	"testing/fstest"
)

// check reads the files a $schema includes as JSON Schemas (reference §4
// $schema), never as templates: a chart's values.schema.json opens with
// JSON Schema's own "$schema" keyword, which as a template would be a
// $schema directive. What render finds in them, check finds.
func TestSchemaInclude_checkReadsTheFilesAsSchemas(t *testing.T) {
	files := fstest.MapFS{
		"t.yaml": {Data: []byte(`a:
  $schema:
    values: {$include: chart/values.schema.json}
    other: {$include: missing.json}
  x: 1
b:
  $schema:
    broken: {$include: broken.json}
  y: 1
`)},
		"chart/values.schema.json": {Data: []byte(`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}`)},
		"broken.json":              {Data: []byte("{\"type\": \"object\",\n \"properties\": {\"a\": {\"type\": \"integr\"}}}")},
	}
	want := `t.yaml:4:23: a.$schema: cannot read included schema file "missing.json": file does not exist
broken.json:2:31: b.$schema: invalid schema for "broken": properties.a.type: unknown type "integr"; expected one of array, boolean, integer, null, number, object, string
`
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

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
