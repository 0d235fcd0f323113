package schema

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// converter converts a schema's YAML to a value, recording the node at
// every JSON pointer.
type converter struct {
	ptrs  map[string]*yaml.Node
	keys  map[string]*yaml.Node // the key node of every mapping entry
	nodes int
}

// value converts the node n at JSON pointer ptr, depth levels into the
// schema.
func (c *converter) value(n *yaml.Node, ptr string, depth int) (value.Value, *yamlnode.Error) {
	c.nodes++
	if c.nodes > maxNodes {
		return nil, &yamlnode.Error{Node: n, Msg: fmt.Sprintf("the schema has more than %d nodes once aliases are expanded", maxNodes)}
	}
	if depth > maxDepth {
		return nil, &yamlnode.Error{Node: n, Msg: fmt.Sprintf("the schema nests more than %d levels deep", maxDepth)}
	}
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return nil, &yamlnode.Error{Node: n, Msg: "unknown alias"}
		}
		n = n.Alias
	}
	if _, ok := c.ptrs[ptr]; !ok {
		c.ptrs[ptr] = n
	}
	tag := n.ShortTag()
	switch n.Kind {
	case yaml.MappingNode:
		if tag != "!!map" {
			return nil, &yamlnode.Error{Node: n, Msg: fmt.Sprintf("unsupported tag %s", n.Tag)}
		}
		return c.mapping(n, ptr, depth)
	case yaml.SequenceNode:
		if tag != "!!seq" {
			return nil, &yamlnode.Error{Node: n, Msg: fmt.Sprintf("unsupported tag %s", n.Tag)}
		}
		return c.sequence(n, ptr, depth)
	case yaml.ScalarNode:
		return scalar(n)
	}
	return nil, &yamlnode.Error{Node: n, Msg: "unsupported YAML node"}
}

// mapping converts a mapping, in template order, recording the node of
// every key.
func (c *converter) mapping(n *yaml.Node, ptr string, depth int) (value.Value, *yamlnode.Error) {
	m := value.NewMap(len(n.Content) / 2)
	lines := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if err := checkKey(k); err != nil {
			return nil, err
		}
		if line, dup := lines[k.Value]; dup {
			return nil, &yamlnode.Error{Node: k, Msg: fmt.Sprintf("key %s appears twice (first at line %d)", quoteJSON(k.Value), line)}
		}
		lines[k.Value] = k.Line
		kp := ptr + "/" + pointerToken(k.Value)
		if c.keys != nil {
			if _, seen := c.keys[kp]; !seen {
				c.keys[kp] = k
			}
		}
		val, err := c.value(v, kp, depth+1)
		if err != nil {
			return nil, err
		}
		m.Set(k.Value, val)
	}
	return m, nil
}

// checkKey refuses a mapping key that is not a scalar read as text.
func checkKey(k *yaml.Node) *yamlnode.Error {
	if k.Kind != yaml.ScalarNode {
		return &yamlnode.Error{Node: k, Msg: "mapping keys must be strings"}
	}
	switch k.ShortTag() {
	case "!!merge":
		return &yamlnode.Error{Node: k, Msg: "merge keys (<<) are not supported"}
	case "!!str", "!!int", "!!float", "!!bool":
		return nil
	}
	return &yamlnode.Error{Node: k, Msg: "mapping keys must be strings"}
}

// sequence converts a sequence.
func (c *converter) sequence(n *yaml.Node, ptr string, depth int) (value.Value, *yamlnode.Error) {
	l := make([]value.Value, 0, len(n.Content))
	for i, item := range n.Content {
		val, err := c.value(item, ptr+"/"+strconv.Itoa(i), depth+1)
		if err != nil {
			return nil, err
		}
		l = append(l, val)
	}
	return l, nil
}

// scalar converts a scalar by its YAML 1.2 core tag.
func scalar(n *yaml.Node) (value.Value, *yamlnode.Error) {
	switch tag := n.ShortTag(); tag {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, &yamlnode.Error{Node: n, Msg: "not a valid boolean"}
		}
		return b, nil
	case "!!int":
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, &yamlnode.Error{Node: n, Msg: "not a valid integer"}
		}
		switch x := v.(type) {
		case int:
			return int64(x), nil
		case int64:
			return x, nil
		case uint64:
			return float64(x), nil
		case float64:
			return x, nil
		}
		return nil, &yamlnode.Error{Node: n, Msg: "not a valid integer"}
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, &yamlnode.Error{Node: n, Msg: "not a valid number"}
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, &yamlnode.Error{Node: n, Msg: "numbers in a schema must be finite"}
		}
		return f, nil
	case "!!str", "!!timestamp", "!!binary":
		return n.Value, nil
	default:
		return nil, &yamlnode.Error{Node: n, Msg: fmt.Sprintf("unsupported tag %s", n.Tag)}
	}
}

// pointerToken escapes a key for a JSON pointer (RFC 6901).
func pointerToken(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
