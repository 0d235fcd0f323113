package tree

import (
	"slices"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// Sorting out a mapping's keys: regular keys, $$keys and directives of
// the table, with the checks that need only the keys (unknown directives,
// missing partners, bodies written without a value).

// isDirectiveLike reports whether a key claims to be a directive: "$"
// followed by a letter or "_". Other keys, such as "${{ x }}" or "$", are
// plain data.
func isDirectiveLike(k string) bool {
	if len(k) < 2 || k[0] != '$' {
		return false
	}
	c := k[1]
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// KVPair is one key and value of a mapping being compiled.
type KVPair struct {
	K, V *yaml.Node
	key  string // the output key, or the directive
	dir  bool   // key is a directive
}

// Key is the pair's output key, or its directive's name.
func (p KVPair) Key() string { return p.key }

// IsDirective reports whether the pair's key is a directive.
func (p KVPair) IsDirective() bool { return p.dir }

// MappingKeys are the keys of a mapping being compiled, sorted out.
type MappingKeys struct {
	t       *Table   // the table the directives were read from
	regular []KVPair // regular keys, template order
	Dirs    DirSet   // directives by name
	order   []KVPair // every pair, template order
}

// Order is every pair of the mapping, in template order.
func (k MappingKeys) Order() []KVPair { return k.order }

// ReadKeys reads the keys of mapping n: each is a regular key, a $$key
// written out with one $ less, or a directive of the table. A key written
// twice, an unknown directive, or one that cannot stand in this place (at
// is where n stands) is an error.
func (c *Compiler) ReadKeys(n *yaml.Node, path string, at Place) (MappingKeys, *CompileError) {
	keys := MappingKeys{t: c.t, Dirs: DirSet{}}
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key, kerr := yamlnode.Key(k)
		if kerr != nil {
			return keys, FromNodeError(kerr, path)
		}
		if prev, dup := seen[key]; dup {
			return keys, CompileErrorAt(k, JoinPath(path, key), yamlnode.DupKeyMsg(key, prev))
		}
		seen[key] = k
		p := KVPair{K: Deref(k), V: v, key: key}
		switch {
		case strings.HasPrefix(key, "$$"):
			p.key = key[1:]
			keys.regular = append(keys.regular, p)
		case isDirectiveLike(key):
			d, ok := c.t.lookup(key)
			if !ok {
				return keys, CompileErrorAt(k, JoinPath(path, key), c.t.unknownDirectiveMsgAt(key, at))
			}
			if d.Only != 0 && d.Only&at == 0 {
				return keys, CompileErrorAt(k, JoinPath(path, key), d.Misplaced)
			}
			p.dir = true
			keys.Dirs[key] = p
		default:
			keys.regular = append(keys.regular, p)
		}
		keys.order = append(keys.order, p)
	}
	return keys, nil
}

// unknownDirectiveMsg is the error for a $-key that is no directive. It
// always says how to write the key as data, and names the directive that
// was probably meant only when the key is not a keyword of JSON Schema or
// OpenAPI, which is written as data far more often than misspelt.
func (t *Table) unknownDirectiveMsg(key string) string {
	msg := "unknown directive " + key
	asData := "write $" + key + " to output a key " + key
	if slices.Contains(schemaKeywords, key) {
		return msg + ": " + key + " is a JSON Schema keyword, not a directive: " + asData
	}
	if s := t.Suggest(key); s != "" {
		return msg + ": did you mean " + s + "? To output a key " + key + " as data, write $" + key
	}
	return msg + ": keys that start with $ are directives; " + asData
}

// unknownDirectiveMsgAt is unknownDirectiveMsg for a key of a mapping
// standing at a place: a directive of that place that is close is
// suggested first ($valuse in a $chart document is $values, not $value).
func (t *Table) unknownDirectiveMsgAt(key string, at Place) string {
	if at != 0 && !slices.Contains(schemaKeywords, key) {
		var cands []string
		for i := range t.dirs {
			if t.dirs[i].Only&at != 0 {
				cands = append(cands, t.dirs[i].Name)
			}
		}
		if s := hint.Nearest(key, cands, 3, true); s != "" {
			return "unknown directive " + key + ": did you mean " + s + "? To output a key " + key + " as data, write $" + key
		}
	}
	return t.unknownDirectiveMsg(key)
}

// schemaKeywords are the $-keywords of JSON Schema (2020-12 and earlier
// drafts) and OpenAPI that templates emit as data.
var schemaKeywords = []string{
	"$ref", "$id", "$defs", "$comment", "$anchor", "$dynamicRef", "$dynamicAnchor",
	"$vocabulary", "$recursiveRef", "$recursiveAnchor",
}

// hasBare reports whether a regular key is spelt like directive d without
// its $, such as then for $then: a slip that would otherwise be data.
func (k MappingKeys) hasBare(d string) bool {
	for _, r := range k.regular {
		if r.key == d[1:] {
			return true
		}
	}
	return false
}

// checkPartners fails on a directive whose partner is missing: partners
// without their directive first ($then without $if), then directives
// without their partner ($if without $then), each in table order.
func checkPartners(keys MappingKeys, path string) *CompileError {
	for _, kind := range []Kind{KindPartner, KindProducer} {
		for i := range keys.t.dirs {
			d := &keys.t.dirs[i]
			p, ok := keys.Dirs[d.Name]
			if !ok || d.Kind != kind || d.Needs == "" {
				continue
			}
			if _, ok := keys.Dirs[d.Needs]; ok {
				continue
			}
			msg := d.missingMsg()
			if keys.hasBare(d.Needs) {
				msg += "; the key " + d.Needs[1:] + " here has no $: write " + d.Needs
			}
			return CompileErrorAt(p.K, JoinPath(path, d.Name), msg)
		}
	}
	return nil
}

// checkBodies fails on a $then, $else or $do written with no value at
// all: `$then:` followed by a line that is not indented under it, which
// YAML reads as an empty value and the lines below as keys of the mapping
// itself. An explicit `$then: null` is allowed.
func checkBodies(keys MappingKeys, path string) *CompileError {
	for i := range keys.t.dirs {
		d := &keys.t.dirs[i]
		p, ok := keys.Dirs[d.Name]
		if !ok || !d.Body {
			continue
		}
		if v := p.V; v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" && v.Value == "" && v.Style&yaml.TaggedStyle == 0 {
			return CompileErrorAt(p.K, JoinPath(path, d.Name), d.Name+" has no value: the lines meant as its body are probably not indented under it; indent them, or write "+d.Name+": null for nothing")
		}
	}
	return nil
}

// partnerSlip is the hint for the merge error when a regular key is spelt
// like a missing partner of one of the mapping's producers (else for
// $else), or "".
func partnerSlip(keys MappingKeys) string {
	for i := range keys.t.dirs {
		d := &keys.t.dirs[i]
		if d.Kind != KindPartner {
			continue
		}
		owner, ok := keys.t.lookup(d.Needs)
		if !ok || owner.Kind != KindProducer {
			continue
		}
		if _, has := keys.Dirs[d.Needs]; !has || !keys.hasBare(d.Name) {
			continue
		}
		if _, has := keys.Dirs[d.Name]; !has {
			return "; the key " + d.Name[1:] + " here is a regular key: did you mean " + d.Name + "?"
		}
	}
	return ""
}
