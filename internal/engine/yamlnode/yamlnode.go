package yamlnode

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"

	"go.yaml.in/yaml/v3"
)

// Error is an error at a node of the template: the caller turns it into a
// positioned error with the file, the directive path and the include chain.
type Error struct {
	Node *yaml.Node
	Msg  string
}

// This file turns parsed YAML nodes that hold plain data into engine
// values. Templates, yaml.decode and $schema defaults all go through it, so
// YAML means the same thing everywhere: YAML 1.2 core schema, as yaml.v3
// resolves it (`yes` and `on` are strings), ints as int64, floats as
// float64.

// maxAliasExpansion bounds how many nodes Plain may produce when
// aliases repeat a subtree, so a "billion laughs" document fails fast.
const maxAliasExpansion = 1_000_000

// Plain converts n, which holds no directives, to a Value. Aliases are
// followed; a document whose aliases would expand past maxAliasExpansion
// nodes is an error.
func Plain(n *yaml.Node) (value.Value, *Error) {
	budget := maxAliasExpansion
	return plainBudget(n, &budget, 0)
}

func plainBudget(n *yaml.Node, budget *int, depth int) (value.Value, *Error) {
	*budget--
	if *budget < 0 {
		return nil, &Error{Node: n, Msg: "YAML aliases expand to more than 1000000 nodes (alias bomb?)"}
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return plainBudget(n.Content[0], budget, depth)
	case yaml.AliasNode:
		if depth > 10000 {
			return nil, &Error{Node: n, Msg: "YAML aliases nest too deep"}
		}
		return plainBudget(n.Alias, budget, depth+1)
	case yaml.ScalarNode:
		return Scalar(n)
	case yaml.SequenceNode:
		out := make([]value.Value, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := plainBudget(c, budget, depth)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		m := value.NewMap(len(n.Content) / 2)
		seen := make(map[string]*yaml.Node, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, vn := n.Content[i], n.Content[i+1]
			key, kerr := Key(k)
			if kerr != nil {
				return nil, kerr
			}
			if prev, dup := seen[key]; dup {
				return nil, &Error{Node: k, Msg: DupKeyMsg(key, prev)}
			}
			seen[key] = k
			v, err := plainBudget(vn, budget, depth)
			if err != nil {
				return nil, err
			}
			m.Set(key, v)
		}
		return m, nil
	}
	return nil, &Error{Node: n, Msg: "unsupported YAML node"}
}

// Key returns the text of a mapping key. Keys must be scalars; merge
// keys (<<) are refused because their meaning differs between YAML 1.1 and
// 1.2 readers.
func Key(k *yaml.Node) (string, *Error) {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode {
		msg := "a mapping key must be a scalar, not " + AKind(k)
		if k.Kind == yaml.MappingNode && k.Style&yaml.FlowStyle != 0 {
			msg += "; " + HelmActionHint
		}
		return "", &Error{Node: k, Msg: msg}
	}
	if k.Tag == "!!merge" || (k.Value == "<<" && k.Style == 0) {
		return "", &Error{Node: k, Msg: "merge keys (<<) are not supported: they mean different things to YAML 1.1 and 1.2 readers; use an alias as a value, $let or $include instead"}
	}
	if err := CheckTag(k); err != nil {
		return "", err
	}
	return k.Value, nil
}

// HelmActionHint answers a Go template action such as {{ .Values.x }},
// which YAML reads as nested flow mappings or cannot read at all.
const HelmActionHint = "{{ … }} is a Go template action, as Helm writes them: CEL-YAML writes a value as $eval: \"${{ expression }}\" and a condition as $if"

// DupKeyMsg is the message for a key written twice in one mapping.
func DupKeyMsg(key string, prev *yaml.Node) string {
	return "duplicate key " + strconv.Quote(key) + ": already written at line " + strconv.Itoa(prev.Line) + ", column " + strconv.Itoa(prev.Column)
}

// CheckTag refuses tags other than YAML's core ones.
func CheckTag(n *yaml.Node) *Error {
	switch n.Tag {
	case "", "!", "!!str", "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq", "!!timestamp",
		"tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
		"tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:map",
		"tag:yaml.org,2002:seq", "tag:yaml.org,2002:timestamp":
		return nil
	case "!!binary", "tag:yaml.org,2002:binary":
		return &Error{Node: n, Msg: "!!binary is not supported: write the base64 text as a plain string"}
	}
	return &Error{Node: n, Msg: "unsupported YAML tag " + n.Tag + ": only the core tags (!!str, !!int, !!float, !!bool, !!null, !!map, !!seq) are allowed"}
}

// Scalar converts one scalar node.
func Scalar(n *yaml.Node) (value.Value, *Error) {
	if err := CheckTag(n); err != nil {
		return nil, err
	}
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, &Error{Node: n, Msg: "invalid boolean"}
		}
		return b, nil
	case "!!int":
		return intValue(n)
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, &Error{Node: n, Msg: "invalid float"}
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			// The output must hold as JSON and as Terraform values, and
			// neither has NaN or infinities. Refusing the literal here
			// gives its position, which the output step no longer knows.
			return nil, &Error{Node: n, Msg: n.Value + " is not a finite number, and JSON and Terraform numbers cannot hold one: quote it to keep it as text, or compute it in a CEL expression with double()"}
		}
		return f, nil
	default: // !!str, !!timestamp
		return n.Value, nil
	}
}

// intValue parses a YAML int exactly: int64 when it fits, otherwise the
// nearest float64.
func intValue(n *yaml.Node) (value.Value, *Error) {
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
		return nil, &Error{Node: n, Msg: "invalid integer"}
	}
	if neg {
		b.Neg(b)
	}
	f, _ := new(big.Float).SetInt(b).Float64()
	if math.IsInf(f, 0) {
		return nil, &Error{Node: n, Msg: "integer out of range"}
	}
	return f, nil
}

// AKind names a node's kind with its article: "a mapping", "an int".
func AKind(n *yaml.Node) string {
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
