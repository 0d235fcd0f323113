package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
)

// This file is the --set family: Helm's path syntax, parsed here (the CLI
// guide, "--set syntax"). One flag value holds one or more assignments,
// PATH=VALUE separated by commas:
//
//   - PATH is keys joined by "." and list indexes in brackets:
//     image.tag, tolerations[0].key, matrix[1][0];
//   - a backslash takes the next character as it is, in PATH and VALUE:
//     a\.b is the key "a.b", one\,two the text "one,two";
//   - VALUE {a,b} is a list (--set, --set-string, --set-file); otherwise
//     VALUE runs to the next comma;
//   - --set reads VALUE as a YAML scalar, --set-string keeps it text,
//     --set-json reads one JSON value (empty: null), --set-file reads the
//     named file's text.
//
// Errors name the flag and the PATH, never the VALUE: a value may be a
// secret.

// setKind is the flag a setting came from.
type setKind uint8

const (
	setYAML   setKind = iota // --set
	setString                // --set-string
	setJSON                  // --set-json
	setFile                  // --set-file
)

func (k setKind) flag() string {
	return [...]string{"--set", "--set-string", "--set-json", "--set-file"}[k]
}

// maxSetIndex is the largest list index a PATH may hold, Helm's limit, so
// that tolerations[99999999] is an error, not a huge list.
const maxSetIndex = 65536

// maxSetSteps is the most steps (keys and indexes) a PATH may have.
const maxSetSteps = 64

// step is one step of a PATH: a key, or a list index when index >= 0.
type step struct {
	key   string
	index int
}

// assignment is one PATH=VALUE.
type assignment struct {
	path  []step
	shown string // PATH as written, for errors
	list  bool   // VALUE was {a,b}
	items []string
	json  string // --set-json: one JSON value's text; "" is null
}

// parseSetting splits a flag's value into its assignments.
func parseSetting(arg string, kind setKind) ([]assignment, error) {
	if t := strings.TrimSpace(arg); kind == setJSON && strings.HasPrefix(t, "{") {
		// A JSON object as a whole, merged onto the values at their
		// root, as Helm 4 reads it.
		a := assignment{shown: "{…}", json: t}
		dec := json.NewDecoder(strings.NewReader(t))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil || dec.InputOffset() != int64(len(t)) {
			return nil, fmt.Errorf("%s {…}: a value that starts with { is one JSON object (or write PATH=JSON)", kind.flag())
		}
		return []assignment{a}, nil
	}
	p := &setParser{s: arg, kind: kind}
	var out []assignment
	for {
		a, err := p.assignment()
		if err != nil {
			return nil, fmt.Errorf("%s %s", kind.flag(), err)
		}
		out = append(out, a)
		if p.i >= len(p.s) {
			return out, nil
		}
	}
}

type setParser struct {
	s    string
	i    int
	kind setKind
}

// until reads to the first unescaped byte of stop, or the end, removing
// the escapes; it returns the text and the byte it stopped at (0 at the
// end).
func (p *setParser) until(stop string) (string, byte, error) {
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '\\':
			if p.i >= len(p.s) {
				return "", 0, errors.New("ends in a backslash, which escapes nothing (write \\\\ for a backslash)")
			}
			b.WriteByte(p.s[p.i])
			p.i++
		case strings.IndexByte(stop, c) >= 0:
			return b.String(), c, nil
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), 0, nil
}

// assignment reads one PATH=VALUE and the comma after it.
func (p *setParser) assignment() (assignment, error) {
	var a assignment
	start := p.i
	shown := func() string { return strconv.Quote(p.s[start:p.i]) }
	for {
		key, last, err := p.until("=[.,")
		if err != nil {
			return a, fmt.Errorf("%s: %v", shown(), err)
		}
		if key == "" {
			if p.i-start <= 1 && last == 0 {
				return a, errors.New("is empty: write PATH=VALUE")
			}
			return a, fmt.Errorf("%s: PATH has an empty key (write a.b=1; \\. is a dot inside a key)", shown())
		}
		a.path = append(a.path, step{key: key, index: -1})
		for last == '[' {
			n, err := p.index()
			if err != nil {
				return a, fmt.Errorf("%s: %v", shown(), err)
			}
			a.path = append(a.path, step{index: n})
			if p.i >= len(p.s) {
				last = 0
				break
			}
			last = p.s[p.i]
			p.i++
			if last != '[' && last != '.' && last != '=' {
				return a, fmt.Errorf("%s: after ] comes ., [ or =", shown())
			}
		}
		if len(a.path) > maxSetSteps {
			return a, fmt.Errorf("%s…: PATH has more than %d steps", strconv.Quote(p.s[start:start+min(40, p.i-start)]), maxSetSteps)
		}
		switch last {
		case '.':
			continue
		case '=':
			a.shown = p.s[start : p.i-1]
			return a, p.value(&a)
		default: // ',' or the end
			hint := ""
			if start > 0 {
				hint = `; a comma ends a VALUE: write \, for a comma in it, {a,b} for a list, or --set-json PATH=[…]`
			}
			return a, fmt.Errorf("%s: no =VALUE (write PATH=VALUE)%s", strconv.Quote(strings.TrimSuffix(p.s[start:p.i], ",")), hint)
		}
	}
}

// index reads N] after a [.
func (p *setParser) index() (int, error) {
	end := strings.IndexByte(p.s[p.i:], ']')
	if end < 0 {
		return 0, errors.New("a [ without its ]")
	}
	text := p.s[p.i : p.i+end]
	p.i += end + 1
	n, err := strconv.Atoi(text)
	switch {
	case err != nil && strings.TrimLeft(text, "-0123456789") == "" && text != "" && text != "-":
		return 0, fmt.Errorf("index [%s] is larger than %d", text, maxSetIndex)
	case err != nil:
		return 0, fmt.Errorf("[%s] is not a list index: write [0], [1], … (\\[ is a bracket inside a key)", text)
	case n < 0:
		return 0, fmt.Errorf("index [%d] is negative; indexes count from 0", n)
	case n > maxSetIndex:
		return 0, fmt.Errorf("index [%d] is larger than %d", n, maxSetIndex)
	}
	return n, nil
}

// value reads VALUE and the comma after it.
func (p *setParser) value(a *assignment) error {
	if p.kind == setJSON {
		return p.jsonValue(a)
	}
	if p.i < len(p.s) && p.s[p.i] == '{' {
		p.i++
		a.list = true
		for {
			item, last, err := p.until(",}")
			if err != nil {
				return fmt.Errorf("%s: %v", a.shown, err)
			}
			if last == 0 {
				return fmt.Errorf("%s: a list {…} must end with }", a.shown)
			}
			if last == '}' && item == "" && len(a.items) == 0 {
				break // {} is the empty list
			}
			a.items = append(a.items, item)
			if last == '}' {
				break
			}
		}
		if p.i < len(p.s) {
			if p.s[p.i] != ',' {
				return fmt.Errorf("%s: after a list {…} comes , or the end", a.shown)
			}
			p.i++
		}
		return nil
	}
	v, _, err := p.until(",")
	if err != nil {
		return fmt.Errorf("%s: %v", a.shown, err)
	}
	a.items = []string{v}
	return nil
}

// jsonValue reads one JSON value, or nothing (null), and the comma after it.
func (p *setParser) jsonValue(a *assignment) error {
	p.skipSpace()
	if p.i >= len(p.s) {
		return nil
	}
	if p.s[p.i] == ',' {
		p.i++
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(p.s[p.i:]))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) && strings.Contains(se.Error(), "max depth") {
			return fmt.Errorf("%s: the JSON value nests deeper than 10000 levels", a.shown)
		}
		if errors.As(err, &se) {
			return fmt.Errorf("%s: the value is not JSON (at byte %d of it)", a.shown, se.Offset)
		}
		return fmt.Errorf("%s: the value is not JSON (it ends too soon)", a.shown)
	}
	p.i += int(dec.InputOffset())
	a.json = string(raw)
	p.skipSpace()
	if p.i < len(p.s) {
		if p.s[p.i] != ',' {
			return fmt.Errorf("%s: after the JSON value comes , or the end", a.shown)
		}
		p.i++
	}
	return nil
}

func (p *setParser) skipSpace() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

// scalar reads one --set VALUE as a YAML scalar; empty is the empty
// string, as in Helm.
func scalar(flag, path, raw string) (value.Value, error) {
	if raw == "" {
		return "", nil
	}
	v, yerr := yamlnode.Scalar(&yaml.Node{Kind: yaml.ScalarNode, Value: raw})
	if yerr != nil {
		return nil, fmt.Errorf("%s %s: the value does not read as a YAML scalar (%s); --set-string keeps it as text",
			flag, path, strings.ReplaceAll(yerr.Msg, raw, "it"))
	}
	return v, nil
}

// jsonToValue reads JSON text as a values file reads it, so that numbers
// and strings have the same types either way.
func jsonToValue(flag, path, text string) (value.Value, error) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(text), &n); err != nil {
		return nil, fmt.Errorf("%s %s: the value does not read as JSON", flag, path)
	}
	v, yerr := yamlnode.Plain(&n)
	if yerr != nil {
		return nil, fmt.Errorf("%s %s: the value does not read as JSON (%s)", flag, path, strings.ReplaceAll(yerr.Msg, text, "it"))
	}
	return v, nil
}

// setAt sets v at path inside cur and returns what cur becomes. A null v
// removes a mapping's key, as in the merge rule (reference §9); a mapping
// v is merged onto a mapping (or an empty one) by that rule; anything else
// replaces. A key
// step into a list and an index step into a mapping are errors, as is an
// index past the end of a list (the end itself adds an item). done is the
// PATH walked so far, for errors.
func setAt(cur value.Value, path []step, v value.Value, done string) (value.Value, error) {
	if len(path) == 0 {
		if _, ok := v.(*value.Map); ok {
			base, ok := cur.(*value.Map)
			if !ok {
				base = value.NewMap(0) // so its nulls go, as the merge rule drops them
			}
			return merge.Patch(base, v), nil
		}
		return v, nil
	}
	s := path[0]
	if s.index < 0 {
		m, ok := cur.(*value.Map)
		if !ok {
			if _, isList := cur.([]value.Value); isList {
				return nil, fmt.Errorf("%s is a list, not a mapping: index it, as %s[0]", done, done)
			}
			m = value.NewMap(1)
		}
		name := keyStep(done, s.key)
		if len(path) == 1 && v == nil {
			m.Delete(s.key)
			return m, nil
		}
		child, _ := m.Get(s.key)
		nv, err := setAt(child, path[1:], v, name)
		if err != nil {
			return nil, err
		}
		m.Set(s.key, nv)
		return m, nil
	}
	list, ok := cur.([]value.Value)
	if !ok {
		if _, isMap := cur.(*value.Map); isMap {
			return nil, fmt.Errorf("%s is a mapping, not a list: name a key, as %s.KEY", done, done)
		}
	}
	name := fmt.Sprintf("%s[%d]", done, s.index)
	switch {
	case s.index > len(list):
		return nil, fmt.Errorf("index %s is out of range: %s has %d items, and an index may be at most %d (which adds one)", name, done, len(list), len(list))
	case s.index == len(list):
		list = append(list, nil)
	}
	nv, err := setAt(list[s.index], path[1:], v, name)
	if err != nil {
		return nil, err
	}
	list[s.index] = nv
	return list, nil
}

// keyStep is done.key as a PATH writes it.
func keyStep(done, key string) string {
	key = strings.NewReplacer(`\`, `\\`, ".", `\.`, "[", `\[`, "=", `\=`, ",", `\,`).Replace(key)
	if done == "" {
		return key
	}
	return done + "." + key
}
