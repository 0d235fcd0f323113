package provider

import (
	"encoding/json"
	"errors"
	"sort"
	"sync"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// Terraform types as the plugin protocol writes them in JSON, for the
// direct codec (codec_msgpack.go): a dynamic value carries its type as
// `"string"`, `["list","number"]`, `["object",{"a":"bool"}]` and so on.
// tftypes parses these with encoding/json into its own types; the codec
// needs only what shapes a value's decoding, and parses the same text
// with a small parser of its own.

// tfKind is the kind of a Terraform type.
type tfKind uint8

const (
	kindString tfKind = iota
	kindNumber
	kindBool
	kindDynamic
	kindList
	kindSet
	kindMap
	kindTuple
	kindObject
)

// tfType is a parsed Terraform type.
type tfType struct {
	kind  tfKind
	elem  *tfType            // list, set, map
	elems []*tfType          // tuple
	attrs map[string]*tfType // object
	names []string           // object: the attribute names, sorted

	engineOnce sync.Once
	engineType value.Type // unknownType's result, worked out once
}

// unknownType is the engine type of an unknown value of type t, all of
// it, as convert.go's unknownType gives it for the same tftypes type.
func (t *tfType) unknownType() value.Type {
	switch t.kind {
	case kindString:
		return value.TypeString
	case kindNumber:
		return value.TypeNumber
	case kindBool:
		return value.TypeBool
	case kindDynamic:
		return value.TypeDynamic
	}
	t.engineOnce.Do(func() { t.engineType = t.compoundType() })
	return t.engineType
}

func (t *tfType) compoundType() value.Type {
	switch t.kind {
	case kindList:
		return value.ListOf(t.elem.unknownType())
	case kindSet:
		return value.SetOf(t.elem.unknownType())
	case kindMap:
		return value.MapOf(t.elem.unknownType())
	case kindTuple:
		elems := make([]value.Type, len(t.elems))
		for i, e := range t.elems {
			elems[i] = e.unknownType()
		}
		return value.TupleOf(elems...)
	case kindObject:
		attrs := make(map[string]value.Type, len(t.attrs))
		for n, at := range t.attrs {
			attrs[n] = at.unknownType()
		}
		return value.ObjectOf(attrs)
	}
	return value.TypeDynamic
}

// typeCache keeps parsed types by their JSON text: a module sends the same
// context type on every call. It starts over past maxCachedTypes entries.
var typeCache = struct {
	sync.Mutex
	m map[string]*tfType
}{m: map[string]*tfType{}}

const maxCachedTypes = 256

// parseTypeJSON parses a type as the protocol writes it, through the cache.
func parseTypeJSON(text []byte) (*tfType, error) {
	typeCache.Lock()
	t := typeCache.m[string(text)]
	typeCache.Unlock()
	if t != nil {
		return t, nil
	}
	p := typeParser{s: text}
	t, err := p.typ(0)
	if err == nil {
		p.space()
		if p.i != len(p.s) {
			err = p.fail("text after the type")
		}
	}
	if err != nil {
		return nil, err
	}
	typeCache.Lock()
	if len(typeCache.m) >= maxCachedTypes {
		typeCache.m = map[string]*tfType{}
	}
	typeCache.m[string(text)] = t
	typeCache.Unlock()
	return t, nil
}

// typeParser reads a type's JSON text.
type typeParser struct {
	s []byte
	i int
}

// maxTypeDepth bounds nesting, as values nest no deeper than their type.
const maxTypeDepth = 512

func (p *typeParser) fail(what string) error {
	return errors.New("invalid type information: " + what)
}

func (p *typeParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\n' || p.s[p.i] == '\t' || p.s[p.i] == '\r') {
		p.i++
	}
}

// expect consumes byte c, after spaces.
func (p *typeParser) expect(c byte) error {
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != c {
		return p.fail("expected " + string(c))
	}
	p.i++
	return nil
}

// peek gives the next byte after spaces, or 0 at the end.
func (p *typeParser) peek() byte {
	p.space()
	if p.i >= len(p.s) {
		return 0
	}
	return p.s[p.i]
}

// str reads a JSON string. One without escapes is taken as it is; one
// with escapes goes through encoding/json, which decodes them exactly as
// tftypes does.
func (p *typeParser) str() (string, error) {
	if err := p.expect('"'); err != nil {
		return "", err
	}
	start, escaped := p.i, false
	for ; p.i < len(p.s); p.i++ {
		switch p.s[p.i] {
		case '\\':
			escaped = true
			p.i++
		case '"':
			p.i++
			if !escaped {
				return string(p.s[start : p.i-1]), nil
			}
			var out string
			if err := json.Unmarshal(p.s[start-1:p.i], &out); err != nil {
				return "", p.fail("a string")
			}
			return out, nil
		}
	}
	return "", p.fail("an unterminated string")
}

func (p *typeParser) typ(depth int) (*tfType, error) {
	if depth > maxTypeDepth {
		return nil, p.fail("nested too deeply")
	}
	if p.peek() == '"' {
		name, err := p.str()
		if err != nil {
			return nil, err
		}
		switch name {
		case "string":
			return &tfType{kind: kindString}, nil
		case "number":
			return &tfType{kind: kindNumber}, nil
		case "bool":
			return &tfType{kind: kindBool}, nil
		case "dynamic":
			return &tfType{kind: kindDynamic}, nil
		}
		return nil, p.fail("unknown primitive type " + name)
	}
	if err := p.expect('['); err != nil {
		return nil, err
	}
	name, err := p.str()
	if err != nil {
		return nil, err
	}
	if err := p.expect(','); err != nil {
		return nil, err
	}
	var t *tfType
	switch name {
	case "list", "set", "map":
		kind := map[string]tfKind{"list": kindList, "set": kindSet, "map": kindMap}[name]
		elem, err := p.typ(depth + 1)
		if err != nil {
			return nil, err
		}
		t = &tfType{kind: kind, elem: elem}
	case "tuple":
		if t, err = p.tuple(depth); err != nil {
			return nil, err
		}
	case "object":
		if t, err = p.object(depth); err != nil {
			return nil, err
		}
	default:
		return nil, p.fail("unknown type " + name)
	}
	return t, p.expect(']')
}

func (p *typeParser) tuple(depth int) (*tfType, error) {
	t := &tfType{kind: kindTuple}
	if err := p.expect('['); err != nil {
		return nil, err
	}
	for p.peek() != ']' {
		if len(t.elems) > 0 {
			if err := p.expect(','); err != nil {
				return nil, err
			}
		}
		e, err := p.typ(depth + 1)
		if err != nil {
			return nil, err
		}
		t.elems = append(t.elems, e)
	}
	p.i++
	return t, nil
}

// object reads `{"name": TYPE, ...}` and, when present, the list of
// optional attributes after it, which does not change decoding.
func (p *typeParser) object(depth int) (*tfType, error) {
	t := &tfType{kind: kindObject, attrs: map[string]*tfType{}}
	if err := p.expect('{'); err != nil {
		return nil, err
	}
	for p.peek() != '}' {
		if len(t.names) > 0 {
			if err := p.expect(','); err != nil {
				return nil, err
			}
		}
		name, err := p.str()
		if err != nil {
			return nil, err
		}
		if err := p.expect(':'); err != nil {
			return nil, err
		}
		at, err := p.typ(depth + 1)
		if err != nil {
			return nil, err
		}
		if _, dup := t.attrs[name]; !dup {
			t.names = append(t.names, name)
		}
		t.attrs[name] = at
	}
	p.i++
	sort.Strings(t.names)
	if p.peek() == ',' {
		p.i++
		if err := p.expect('['); err != nil {
			return nil, err
		}
		for p.peek() != ']' {
			if p.peek() == ',' {
				p.i++
			}
			if _, err := p.str(); err != nil {
				return nil, err
			}
		}
		p.i++
	}
	return t, nil
}
