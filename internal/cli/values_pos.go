package cli

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/lex"
)

// This file points a value that breaks a template's $schema at the values
// file line that gave it, as ytt does (the CLI guide, "Errors in values"):
// each values file's positions are kept by path, and the paths of the
// engine's $schema failures are looked up in them.

// layer is where one layer of the values came from: a values file (pos,
// the position of each value it sets, by pathKey) or a --set (set, the
// pathKey of the PATH it sets).
type layer struct {
	pos map[string]engine.Pos
	set string
}

// pathKey is the key of a path in the position index: each key quoted,
// each index in brackets. Quoting keeps prefixes honest: the key of a is
// a prefix of the keys of a.b and a[0], never of ab.
func pathKey(parent, key string) string { return parent + "." + strconv.Quote(key) }

func indexKey(parent string, i int) string { return parent + "[" + strconv.Itoa(i) + "]" }

func pathKeyOf(path []step) string {
	k := ""
	for _, s := range path {
		if s.index >= 0 {
			k = indexKey(k, s.index)
		} else {
			k = pathKey(k, s.key)
		}
	}
	return k
}

// positions indexes where doc sets each value, by pathKey (under name,
// when the file is read as one variable). A value's position is its
// node's, or its key's when it is a block mapping or sequence (whose node
// starts on the next line). Aliases are not followed: a value under one
// is placed at the alias.
func positions(file string, doc *yaml.Node, name string) map[string]engine.Pos {
	out := map[string]engine.Pos{}
	if doc == nil || len(doc.Content) == 0 {
		return out
	}
	var walk func(n *yaml.Node, key string, at engine.Pos)
	walk = func(n *yaml.Node, key string, at engine.Pos) {
		out[key] = at
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				walk(v, pathKey(key, k.Value), nodePos(file, k, v))
			}
		case yaml.SequenceNode:
			for i, v := range n.Content {
				walk(v, indexKey(key, i), engine.Pos{File: file, Line: v.Line, Column: v.Column})
			}
		}
	}
	root := doc.Content[0]
	if name != "" {
		walk(root, pathKey("", name), engine.Pos{File: file, Line: root.Line, Column: root.Column})
		return out
	}
	if root.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(root.Content); i += 2 {
			k, v := root.Content[i], root.Content[i+1]
			walk(v, pathKey("", k.Value), nodePos(file, k, v))
		}
	}
	return out
}

func nodePos(file string, k, v *yaml.Node) engine.Pos {
	if (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode) && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 {
		return engine.Pos{File: file, Line: k.Line, Column: k.Column}
	}
	return engine.Pos{File: file, Line: v.Line, Column: v.Column}
}

// lookup is where the value at key came from: the last layer that sets
// it, or, for a key no layer names, its nearest ancestor that one does.
// A --set that sets it or an ancestor of it wins over the files before
// it, and has no position.
func (in *inputs) lookup(key string) (engine.Pos, bool) {
	for k := key; k != ""; k = parentKey(k) {
		for i := len(in.layers) - 1; i >= 0; i-- {
			l := in.layers[i]
			if l.pos == nil {
				if l.set == k || strings.HasPrefix(k, l.set) && (k[len(l.set)] == '.' || k[len(l.set)] == '[') {
					return engine.Pos{}, false
				}
				continue
			}
			if p, ok := l.pos[k]; ok {
				return p, true
			}
		}
	}
	return engine.Pos{}, false
}

// parentKey drops the last step of a pathKey.
func parentKey(k string) string {
	if strings.HasSuffix(k, "]") {
		return k[:strings.LastIndexByte(k, '[')]
	}
	// The last step is ."…": find the quote that opens it.
	for i := len(k) - 2; i > 0; i-- {
		if k[i] == '"' && k[i-1] == '.' {
			if _, err := strconv.Unquote(k[i:]); err == nil {
				return k[:i-1]
			}
		}
	}
	return ""
}

// schemaMsg starts the engine's message for variables that break $schema;
// the failures follow it, one "PATH: MESSAGE" each (reference §4
// $schema).
const schemaMsg = "the variables do not match the schema:"

// valuesError is a render error about values, with the values file lines
// that gave the values it is about first.
type valuesError struct {
	at  []*engine.Error // one per failure, at the values file line
	err error           // the engine's error, at the $schema
}

func (e *valuesError) Error() string {
	var b strings.Builder
	for _, a := range e.at {
		b.WriteString(a.Error())
		b.WriteByte('\n')
	}
	b.WriteString(e.err.Error())
	return b.String()
}

// Unwrap gives the values file errors, then the engine's.
func (e *valuesError) Unwrap() []error {
	out := make([]error, 0, len(e.at)+1)
	for _, a := range e.at {
		out = append(out, a)
	}
	return append(out, e.err)
}

// atValues adds to err, when it is a $schema failure of values the
// values files gave, the values file position of each value it refuses:
// "values.yaml:3:15: replicaCount: expected integer, got string", then
// err as it was. Other errors are returned as they are.
func (in *inputs) atValues(err error) error {
	var e *engine.Error
	if !errors.As(err, &e) || !strings.HasPrefix(e.Msg, schemaMsg) || len(in.layers) == 0 {
		return err
	}
	var lines []string
	if rest, ok := strings.CutPrefix(e.Msg, schemaMsg+" "); ok {
		lines = []string{rest}
	} else {
		lines = strings.Split(strings.TrimPrefix(e.Msg, schemaMsg), "\n    ")[1:]
	}
	var at []*engine.Error
	for _, line := range lines {
		key, ok := failureKey(line)
		if !ok {
			continue
		}
		if p, ok := in.lookup(key); ok {
			at = append(at, &engine.Error{Pos: p, Msg: line, Offset: -1})
		}
	}
	if len(at) == 0 {
		return err
	}
	return &valuesError{at: at, err: err}
}

// failureKey reads the path at the start of a $schema failure,
// "image.ports[0][\"a b\"]: message", as a pathKey. A key the schema does
// not name is shown as […]; the path up to it is the one given. ok is
// false for a line that does not start with a path and ": ".
func failureKey(line string) (key string, ok bool) {
	i := 0
	for i < len(line) && lex.IsIdentByte(line[i]) {
		i++
	}
	if i == 0 {
		return "", false
	}
	key = pathKey("", line[:i])
	for i < len(line) {
		switch {
		case strings.HasPrefix(line[i:], ": "):
			return key, true
		case line[i] == '.':
			j := i + 1
			for j < len(line) && (lex.IsIdentByte(line[j]) || line[j] == '-') {
				j++
			}
			key, i = pathKey(key, line[i+1:j]), j
		case strings.HasPrefix(line[i:], "[…]"):
			return key, strings.Contains(line[i:], ": ")
		case strings.HasPrefix(line[i:], `["`):
			dec := json.NewDecoder(strings.NewReader(line[i+1:]))
			var s string
			if dec.Decode(&s) != nil {
				return "", false
			}
			i += 1 + int(dec.InputOffset())
			if !strings.HasPrefix(line[i:], "]") {
				return "", false
			}
			key, i = pathKey(key, s), i+1
		case line[i] == '[':
			j := strings.IndexByte(line[i:], ']')
			n, err := strconv.Atoi(line[i+1 : i+max(j, 1)])
			if j < 0 || err != nil {
				return "", false
			}
			key, i = indexKey(key, n), i+j+1
		default:
			return "", false
		}
	}
	return "", false
}

// valuesProblems is, for a $schema failure e of values the values files
// gave, one problem at each values file line that gave a refused value
// (what atValues puts before e), for check to report beside e.
func (in *inputs) valuesProblems(e *engine.Error) []engine.Problem {
	var ve *valuesError
	if !errors.As(in.atValues(e), &ve) {
		return nil
	}
	out := make([]engine.Problem, len(ve.at))
	for i, a := range ve.at {
		out[i] = engine.Problem{Err: a}
	}
	return out
}
