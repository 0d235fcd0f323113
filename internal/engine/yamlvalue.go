package engine

import (
	"math"
	"math/big"
	"strings"

	"go.yaml.in/yaml/v3"
)

// This file turns parsed YAML nodes that hold plain data into engine
// values. Templates, yaml.decode and $schema defaults all go through it, so
// YAML means the same thing everywhere: YAML 1.2 core schema, as yaml.v3
// resolves it (`yes` and `on` are strings), ints as int64, floats as
// float64.

// maxAliasExpansion bounds how many nodes plainValue may produce when
// aliases repeat a subtree, so a "billion laughs" document fails fast.
const maxAliasExpansion = 1_000_000

// plainValue converts n, which holds no directives, to a Value. Aliases are
// followed; a document whose aliases would expand past maxAliasExpansion
// nodes is an error.
func plainValue(n *yaml.Node) (Value, *nodeError) {
	budget := maxAliasExpansion
	return plainValueBudget(n, &budget, 0)
}

func plainValueBudget(n *yaml.Node, budget *int, depth int) (Value, *nodeError) {
	*budget--
	if *budget < 0 {
		return nil, &nodeError{node: n, msg: "YAML aliases expand to more than 1000000 nodes (alias bomb?)"}
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return plainValueBudget(n.Content[0], budget, depth)
	case yaml.AliasNode:
		if depth > 10000 {
			return nil, &nodeError{node: n, msg: "YAML aliases nest too deep"}
		}
		return plainValueBudget(n.Alias, budget, depth+1)
	case yaml.ScalarNode:
		return scalarValue(n)
	case yaml.SequenceNode:
		out := make([]Value, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := plainValueBudget(c, budget, depth)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		m := NewMap(len(n.Content) / 2)
		seen := make(map[string]*yaml.Node, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, vn := n.Content[i], n.Content[i+1]
			key, kerr := mapKey(k)
			if kerr != nil {
				return nil, kerr
			}
			if prev, dup := seen[key]; dup {
				return nil, &nodeError{node: k, msg: dupKeyMsg(key, prev)}
			}
			seen[key] = k
			v, err := plainValueBudget(vn, budget, depth)
			if err != nil {
				return nil, err
			}
			m.Set(key, v)
		}
		return m, nil
	}
	return nil, &nodeError{node: n, msg: "unsupported YAML node"}
}

// mapKey returns the text of a mapping key. Keys must be scalars; merge
// keys (<<) are refused because their meaning differs between YAML 1.1 and
// 1.2 readers.
func mapKey(k *yaml.Node) (string, *nodeError) {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode {
		return "", &nodeError{node: k, msg: "a mapping key must be a scalar, not " + aKind(k)}
	}
	if k.Tag == "!!merge" || (k.Value == "<<" && k.Style == 0) {
		return "", &nodeError{node: k, msg: "merge keys (<<) are not supported: they mean different things to YAML 1.1 and 1.2 readers; use an alias as a value, $let or $include instead"}
	}
	if err := checkTag(k); err != nil {
		return "", err
	}
	return k.Value, nil
}

func dupKeyMsg(key string, prev *yaml.Node) string {
	return "duplicate key " + quote(key) + ": already written at line " + itoa(prev.Line) + ", column " + itoa(prev.Column)
}

// checkTag refuses tags other than YAML's core ones.
func checkTag(n *yaml.Node) *nodeError {
	switch n.Tag {
	case "", "!", "!!str", "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq", "!!timestamp",
		"tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
		"tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:map",
		"tag:yaml.org,2002:seq", "tag:yaml.org,2002:timestamp":
		return nil
	case "!!binary", "tag:yaml.org,2002:binary":
		return &nodeError{node: n, msg: "!!binary is not supported: write the base64 text as a plain string"}
	}
	return &nodeError{node: n, msg: "unsupported YAML tag " + n.Tag + ": only the core tags (!!str, !!int, !!float, !!bool, !!null, !!map, !!seq) are allowed"}
}

// scalarValue converts one scalar node.
func scalarValue(n *yaml.Node) (Value, *nodeError) {
	if err := checkTag(n); err != nil {
		return nil, err
	}
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, &nodeError{node: n, msg: "invalid boolean"}
		}
		return b, nil
	case "!!int":
		return intValue(n)
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, &nodeError{node: n, msg: "invalid float"}
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			// The output must hold as JSON and as Terraform values, and
			// neither has NaN or infinities. Refusing the literal here
			// gives its position, which the output step no longer knows.
			return nil, &nodeError{node: n, msg: n.Value + " is not a finite number, and JSON and Terraform numbers cannot hold one: quote it to keep it as text, or compute it in a CEL expression with double()"}
		}
		return f, nil
	default: // !!str, !!timestamp
		return n.Value, nil
	}
}

// intValue parses a YAML int exactly: int64 when it fits, otherwise the
// nearest float64.
func intValue(n *yaml.Node) (Value, *nodeError) {
	var i int64
	if err := n.Decode(&i); err == nil {
		return i, nil
	}
	s := strings.ReplaceAll(n.Value, "_", "")
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	base := 10
	switch {
	case strings.HasPrefix(s, "0x"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0o"):
		base, s = 8, s[2:]
	case strings.HasPrefix(s, "0b"):
		base, s = 2, s[2:]
	}
	b, ok := new(big.Int).SetString(s, base)
	if !ok {
		return nil, &nodeError{node: n, msg: "invalid integer"}
	}
	if neg {
		b.Neg(b)
	}
	f, _ := new(big.Float).SetInt(b).Float64()
	if math.IsInf(f, 0) {
		return nil, &nodeError{node: n, msg: "integer out of range"}
	}
	return f, nil
}

// aKind names a node's kind with its article: "a mapping", "an int".
func aKind(n *yaml.Node) string {
	k := kindName(n)
	switch k[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + k
	}
	if k == "null" {
		return k
	}
	return "a " + k
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!bool":
			return "bool"
		case "!!int":
			return "int"
		case "!!float":
			return "float"
		}
		return "string"
	case yaml.AliasNode:
		return "alias"
	case yaml.DocumentNode:
		return "document"
	}
	return "node"
}
