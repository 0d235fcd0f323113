package lsp

import (
	"context"
	"errors"
	"io/fs"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// document is a buffer the editor has open.
type document struct {
	uri  string
	path string // the file's path, "" for a URI that is no file
	text string
	// syms are the names of the last text that parsed, so completion
	// still works while a line is half typed; symsOf is the text they
	// were read from. They are read when a request needs them, not on
	// every keystroke.
	syms   *engine.Symbols
	symsOf string
}

// store holds the open documents.
type store struct {
	mu     sync.Mutex
	byURI  map[string]*document
	byPath map[string]*document
}

func newStore() *store {
	return &store{byURI: map[string]*document{}, byPath: map[string]*document{}}
}

func (st *store) get(uri string) *document {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.byURI[uri]
}

func (st *store) put(uri, text string) *document {
	st.mu.Lock()
	defer st.mu.Unlock()
	d := st.byURI[uri]
	if d == nil {
		d = &document{uri: uri, path: uriPath(uri)}
		st.byURI[uri] = d
		if d.path != "" {
			st.byPath[d.path] = d
		}
	}
	d.text = text
	return d
}

// others are the open documents other than d, in the order of their URIs.
func (st *store) others(d *document) []*document {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]*document, 0, len(st.byURI))
	for _, o := range st.byURI {
		if o != d {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].uri < out[j].uri })
	return out
}

func (st *store) remove(uri string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if d := st.byURI[uri]; d != nil {
		delete(st.byURI, uri)
		delete(st.byPath, d.path)
	}
}

func (st *store) textOf(path string) (string, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if d := st.byPath[path]; d != nil {
		return d.text, true
	}
	return "", false
}

// overlayLoader reads an open buffer instead of its file on disk.
type overlayLoader struct {
	docs *store
	base engine.Loader
}

// errTooLarge is what an open buffer larger than the engine's limit gives.
var errTooLarge = errors.New("the open buffer is larger than the engine's MaxTemplateBytes")

func (l overlayLoader) ReadFile(ctx context.Context, name string, limit int) ([]byte, error) {
	if abs, err := filepath.Abs(name); err == nil {
		if text, ok := l.docs.textOf(filepath.Clean(abs)); ok {
			if len(text) > limit {
				return nil, errTooLarge
			}
			return []byte(text), nil
		}
	}
	return l.base.ReadFile(ctx, name, limit)
}

// ReadDir lists a folder through the base loader, so that a $chart of a
// chart folder (reference §11) loads in the editor as on the command
// line: open buffers are files, never folders.
func (l overlayLoader) ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	if d, ok := l.base.(interface {
		ReadDir(context.Context, string) ([]fs.DirEntry, error)
	}); ok {
		return d.ReadDir(ctx, name)
	}
	return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.ErrUnsupported}
}

// RealPath resolves name's symlinks through the base loader, within its
// roots, as a chart folder's symlinks are followed on the command line.
func (l overlayLoader) RealPath(name string) (string, error) {
	if r, ok := l.base.(interface{ RealPath(string) (string, error) }); ok {
		return r.RealPath(name)
	}
	return "", &fs.PathError{Op: "realpath", Path: name, Err: errors.ErrUnsupported}
}

// uriPath is the file a file: URI names, or "".
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return ""
	}
	return filepath.Clean(filepath.FromSlash(u.Path))
}

// pathURI is the file: URI of path.
func pathURI(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// source is the engine's view of d: named after its file, so that its
// $include paths resolve against its directory.
func (d *document) source() engine.Source {
	return engine.Source{Name: d.path, Text: []byte(d.text)}
}

// fileName is how the engine names d's file in positions.
func (d *document) fileName() string {
	if d.path == "" {
		return engine.InlineName
	}
	return d.path
}

func (s *Server) didOpen(ctx *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
	d := s.docs.put(p.TextDocument.URI, p.TextDocument.Text)
	s.refresh(ctx, d)
	return nil
}

func (s *Server) didChange(ctx *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
	d := s.docs.get(p.TextDocument.URI)
	if d == nil {
		return errors.New("textDocument/didChange for a document that is not open")
	}
	text := d.text
	for _, c := range p.ContentChanges {
		switch c := c.(type) {
		case protocol.TextDocumentContentChangeEventWhole:
			text = c.Text
		case protocol.TextDocumentContentChangeEvent:
			if c.Range == nil {
				text = c.Text
				continue
			}
			start, end := offsetOf(text, c.Range.Start), offsetOf(text, c.Range.End)
			if end < start {
				start, end = end, start
			}
			text = text[:start] + c.Text + text[end:]
		}
	}
	d = s.docs.put(p.TextDocument.URI, text)
	s.refresh(ctx, d)
	return nil
}

func (s *Server) didClose(ctx *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
	s.docs.remove(p.TextDocument.URI)
	ctx.Notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []protocol.Diagnostic{}})
	return nil
}

// symbols are the names of d's text, or of its last text that parsed.
func (s *Server) symbols(d *document) *engine.Symbols {
	if d == nil {
		return nil
	}
	if d.symsOf != d.text || d.syms == nil {
		if syms, err := s.eng.Symbols(d.source()); err == nil || d.syms == nil {
			d.syms = syms
		}
		d.symsOf = d.text
	}
	return d.syms
}

// refresh schedules d's diagnostics.
func (s *Server) refresh(_ *glsp.Context, d *document) {
	s.pendMu.Lock()
	if !slices.Contains(s.pending, d.uri) {
		s.pending = append(s.pending, d.uri)
	}
	s.pendMu.Unlock()
	select {
	case s.work <- struct{}{}:
	default: // the loop is already due to run
	}
}

// publishLoop publishes the diagnostics that are due until ctx is done:
// those of each changed document, and of the other open documents that
// include its file by a literal path (its buffer is what they include
// now). Changes that come while a check runs are taken together; the
// diagnostics of a text that has changed since are not sent (the newer
// text's are due).
func (s *Server) publishLoop(ctx context.Context, conn *jsonrpc2.Conn) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.work:
		}
		s.pendMu.Lock()
		uris := s.pending
		s.pending = nil
		s.pendMu.Unlock()
		for _, job := range s.jobs(uris) {
			diags, ok := s.safeDiagnostics(&job)
			s.mu.Lock()
			cur := s.docs.get(job.uri)
			stale := cur == nil || cur.text != job.text
			s.mu.Unlock()
			if ok && !stale {
				_ = conn.Notify(ctx, protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: job.uri, Diagnostics: diags})
			}
		}
	}
}

// jobs are copies of the documents whose diagnostics are due.
func (s *Server) jobs(uris []string) []document {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []document
	seen := map[string]bool{}
	add := func(d *document) {
		if !seen[d.uri] {
			seen[d.uri] = true
			out = append(out, document{uri: d.uri, path: d.path, text: d.text})
		}
	}
	for _, u := range uris {
		d := s.docs.get(u)
		if d == nil {
			continue
		}
		add(d)
		if d.path == "" {
			continue
		}
		for _, o := range s.docs.others(d) {
			syms := s.symbols(o)
			if syms == nil {
				continue
			}
			for _, inc := range syms.Includes {
				if abs, err := filepath.Abs(inc.File); err == nil && filepath.Clean(abs) == d.path {
					add(o)
					break
				}
			}
		}
	}
	return out
}

// safeDiagnostics is diagnostics, with a panic turned into no answer: a
// bug in one check does not end the session.
func (s *Server) safeDiagnostics(d *document) (diags []protocol.Diagnostic, ok bool) {
	defer func() {
		if recover() != nil {
			diags, ok = nil, false
		}
	}()
	return s.diagnostics(d), true
}

// Positions. The engine's are 1-based lines and columns counted in
// characters (runes); the protocol's are 0-based lines and columns
// counted in UTF-16 code units.

// lineText is the line'th line of text (0-based), without its line break.
func lineText(text string, line int) string {
	for i := 0; i < line; i++ {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return ""
		}
		text = text[j+1:]
	}
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return strings.TrimSuffix(text, "\r")
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// toLSP converts the engine's line and column to the protocol's.
func toLSP(text string, line, column int) protocol.Position {
	if line < 1 {
		return protocol.Position{}
	}
	l := lineText(text, line-1)
	prefix := l
	if column > 1 {
		n := 0
		for i := range l {
			if n == column-1 {
				prefix = l[:i]
				break
			}
			n++
		}
	} else {
		prefix = ""
	}
	return protocol.Position{Line: protocol.UInteger(line - 1), Character: protocol.UInteger(utf16Len(prefix))}
}

// runeIndex is the byte index in line of the UTF-16 column char, clamped
// to the line's end.
func runeIndex(line string, char int) int {
	n := 0
	for i, r := range line {
		if n >= char {
			return i
		}
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return len(line)
}

// fromLSP converts a protocol position to the engine's line and column
// and gives the line's text and the byte index of the position in it.
func fromLSP(text string, p protocol.Position) (line, column int, lt string, idx int) {
	lt = lineText(text, int(p.Line))
	idx = runeIndex(lt, int(p.Character))
	return int(p.Line) + 1, utf8.RuneCountInString(lt[:idx]) + 1, lt, idx
}

// offsetOf is the byte offset in text of a protocol position.
func offsetOf(text string, p protocol.Position) int {
	off := 0
	for i := 0; i < int(p.Line); i++ {
		j := strings.IndexByte(text[off:], '\n')
		if j < 0 {
			return len(text)
		}
		off += j + 1
	}
	end := strings.IndexByte(text[off:], '\n')
	if end < 0 {
		end = len(text) - off
	}
	return off + runeIndex(text[off:off+end], int(p.Character))
}
