package walk

import (
	"sync"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// A template is parsed and compiled once per distinct text: the compiled
// form is immutable and shared by every render, across goroutines, and
// the engine keeps it here.

// fileCache maps template text to its compiled form under one table.
type fileCache struct {
	t  *tree.Table
	mu sync.Mutex
	m  map[string]*tree.CompiledFile
}

// maxCachedFiles bounds the cache; past it, the cache starts over.
const maxCachedFiles = 512

// newFileCache returns an empty cache of the files compiled with table t.
func newFileCache(t *tree.Table) *fileCache { return &fileCache{t: t} }

// Get gives the compiled form of text, compiling it on first use.
func (c *fileCache) Get(text []byte) *tree.CompiledFile {
	c.mu.Lock()
	f := c.m[string(text)]
	c.mu.Unlock()
	if f != nil {
		return f
	}
	f = c.t.CompileFile(text)
	key := string(text)
	f.Text = key
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCachedFiles {
		c.m = make(map[string]*tree.CompiledFile)
	}
	c.m[key] = f
	c.mu.Unlock()
	return f
}

// Len is how many compiled texts the cache keeps.
func (c *fileCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
