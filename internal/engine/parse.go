package engine

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// A template is parsed and compiled once per distinct text: the compiled
// form is immutable and shared by every render, across goroutines.

// compiledFile is one parsed and compiled template file.
type compiledFile struct {
	docs      []tnode // one per YAML document, in order
	err       *compileError
	depth     int        // deepest nesting of mappings and sequences
	deepest   *yaml.Node // a node at that depth
	deepestAt string     // its directive path
}

// fileCache maps template text to its compiled form.
type fileCache struct {
	mu sync.Mutex
	m  map[string]*compiledFile
}

// maxCachedFiles bounds the cache; past it, the cache starts over.
const maxCachedFiles = 512

func (c *fileCache) get(text []byte) *compiledFile {
	c.mu.Lock()
	f := c.m[string(text)]
	c.mu.Unlock()
	if f != nil {
		return f
	}
	f = compileFile(text)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCachedFiles {
		c.m = make(map[string]*compiledFile)
	}
	c.m[string(text)] = f
	c.mu.Unlock()
	return f
}

var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// compileFile parses text as a YAML stream and compiles each document.
func compileFile(text []byte) *compiledFile {
	f := &compiledFile{}
	if err := checkText(text); err != nil {
		f.err = err
		return f
	}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	c := newCompiler()
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			f.docs = nil
			f.err = yamlParseError(err)
			return f
		}
		if d, n := nodeDepth(&doc, 0); d > f.depth {
			f.depth, f.deepest = d, n
		}
		t, cerr := c.document(&doc)
		if cerr != nil {
			f.docs = nil
			f.err = cerr
			return f
		}
		f.docs = append(f.docs, t)
	}
	return f
}

// checkText finds NUL bytes and invalid UTF-8 before the YAML parser does,
// to report their exact line and column.
func checkText(text []byte) *compileError {
	if utf8.Valid(text) && bytes.IndexByte(text, 0) < 0 {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(text); {
		c := text[i]
		if c == 0 {
			return &compileError{line: line, column: col, msg: "invalid YAML: NUL bytes are not allowed in a template", offset: -1}
		}
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size <= 1 {
			return &compileError{line: line, column: col, msg: "invalid YAML: the template is not valid UTF-8", offset: -1}
		}
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return nil
}

// nodeDepth returns how deeply n nests, and the deepest node. Aliases are
// not followed: their expansion is bounded by the node limit.
func nodeDepth(n *yaml.Node, depth int) (int, *yaml.Node) {
	best, at := depth, n
	for _, c := range n.Content {
		if c.Kind == yaml.MappingNode || c.Kind == yaml.SequenceNode {
			if d, x := nodeDepth(c, depth+1); d > best {
				best, at = d, x
			}
		}
	}
	return best, at
}

// yamlParseError turns a yaml.v3 parse error into a positioned error.
func yamlParseError(err error) *compileError {
	msg := err.Error()
	line := 1
	if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
		if n, e := strconv.Atoi(m[1]); e == nil {
			line = n
		}
		msg = m[2]
	} else if len(msg) > 6 && msg[:6] == "yaml: " {
		msg = msg[6:]
	}
	return &compileError{line: line, column: 1, msg: "invalid YAML: " + msg}
}
