package tree

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// A template file compiles to an immutable CompiledFile, which renders on
// any goroutine share: package walk's engine compiles each distinct text
// once and keeps it.

// CompiledFile is one parsed and compiled template file.
type CompiledFile struct {
	Docs    []Node // one per YAML document, in order
	Err     *CompileError
	Depth   int        // deepest nesting of mappings and sequences
	Deepest *yaml.Node // a node at that depth
	// Preambles are the roots of the file's preamble documents, in order:
	// each nests the documents after it one level deeper (reference §1),
	// so they count against MaxDepth too.
	Preambles []*yaml.Node
	// Text is the file's Text, the cache's key: error messages read which
	// strings it writes (manifest.Written).
	Text string
}

var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// CompileFile parses text as a YAML stream and compiles each document.
func (t *Table) CompileFile(text []byte) *CompiledFile {
	f := &CompiledFile{}
	if err := CheckText(text); err != nil {
		f.Err = err
		return f
	}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	c := t.NewCompiler()
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			f.Docs = nil
			f.Err = YAMLParseError(err, text)
			return f
		}
		if d, n := nodeDepth(&doc, 0); d > f.Depth {
			f.Depth, f.Deepest = d, n
		}
		t, cerr := c.Document(&doc)
		if cerr != nil {
			f.Docs = nil
			f.Err = cerr
			return f
		}
		f.Docs = append(f.Docs, t)
		if IsPreamble(t) {
			f.Preambles = append(f.Preambles, t.(*MapNode).Node) //nolint:forcetypeassert // IsPreamble checked it
		}
	}
	return f
}

// CheckText finds NUL bytes and invalid UTF-8 before the YAML parser does,
// to report their exact line and column.
func CheckText(text []byte) *CompileError {
	if utf8.Valid(text) && bytes.IndexByte(text, 0) < 0 {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(text); {
		c := text[i]
		if c == 0 {
			return &CompileError{line: line, column: col, Msg: "invalid YAML: NUL bytes are not allowed in a template", Offset: -1}
		}
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size <= 1 {
			return &CompileError{line: line, column: col, Msg: "invalid YAML: the template is not valid UTF-8", Offset: -1}
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

// YAMLParseError turns a yaml.v3 parse error into a positioned error.
// yaml.v3 gives only a line, and words some errors after its scanner; the
// column and the words are found here from the text: a tab is named as
// one, "mapping values are not allowed" points at the ':' that is not
// allowed, and a Go template action ({{ … }}, pasted from a Helm chart)
// gets the CEL-YAML form.
func YAMLParseError(err error, text []byte) *CompileError {
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
	column := 1
	if l, c, ok := helmAction(text); ok {
		return &CompileError{line: l, column: c, Msg: "invalid YAML: " + msg + "; " + yamlnode.HelmActionHint}
	}
	src := lineText(text, line)
	switch {
	case strings.Contains(msg, "tab character") || (msg == "found character that cannot start any token" && strings.Contains(src, "\t")):
		// yaml.v3 may name a line before the tab's: the tab is the first
		// at or after the line it names.
		for l, last := line, bytes.Count(text, []byte{'\n'})+1; l <= last; l++ {
			if i := strings.IndexByte(lineText(text, l), '\t'); i >= 0 {
				line, column = l, i+1
				break
			}
		}
		msg = "a tab character: YAML indents with spaces only, never tabs"
	case msg == "mapping values are not allowed in this context":
		if c := lastMappingColon(src); c > 0 {
			column = c
		}
		msg += " (a key indented under a key whose value is already on its line, or a plain value holding ': ' that needs quotes)"
	}
	return &CompileError{line: line, column: column, Msg: "invalid YAML: " + msg}
}

// helmAction finds the first Go template action "{{" outside quotes that
// is not a CEL-YAML "${{", and gives its line and column. yaml.v3 often
// reports such a template at another line, so the action's own place is
// the one to show.
func helmAction(text []byte) (line, column int, ok bool) {
	line, start, quote := 1, 0, byte(0)
	for i := 0; i+1 < len(text); i++ {
		switch c := text[i]; {
		case c == '\n':
			line, start, quote = line+1, i+1, 0
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '$' && text[i+1] == '{':
			for i+1 < len(text) && text[i+1] == '{' {
				i++ // the braces of ${{
			}
		case c == '{' && text[i+1] == '{':
			return line, utf8.RuneCount(text[start:i]) + 1, true
		}
	}
	return 0, 0, false
}

// lineText gives line n (from 1) of text, without its line break.
func lineText(text []byte, n int) string {
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(text, '\n')
		if j < 0 {
			return ""
		}
		text = text[j+1:]
	}
	if j := bytes.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return string(text)
}

// lastMappingColon gives the column of the last ':' of line that ends a
// plain key (followed by a space or the end of the line), outside quotes,
// or 0.
func lastMappingColon(line string) int {
	col, quote := 0, byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' '):
			return col
		case c == ':' && (i+1 == len(line) || line[i+1] == ' '):
			col = utf8.RuneCountInString(line[:i]) + 1
		}
	}
	return col
}
