package engine

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"sync"

	"go.yaml.in/yaml/v3"
)

// A template is parsed and compiled once per distinct text: the compiled
// form is immutable and shared by every render, across goroutines.

// compiledFile is one parsed and compiled template file.
type compiledFile struct {
	docs []tnode // one per YAML document, in order
	err  *compileError
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
	dec := yaml.NewDecoder(bytes.NewReader(text))
	f := &compiledFile{}
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
