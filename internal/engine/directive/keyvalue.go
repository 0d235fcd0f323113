package directive

import (
	"strconv"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"go.yaml.in/yaml/v3"
)

// $key / $value give a one-entry mapping with a computed key. They are
// allowed anywhere, and replace or merge like any other producer.

type kvDir struct {
	key  *yaml.Node
	vKey *yaml.Node // the $value key, nil when absent
	k, v tree.Node
	path string
}

func compileKeyValue(c *tree.Compiler, key, vKey, kn, vn *yaml.Node, path string) (tree.Producer, *tree.CompileError) {
	d := &kvDir{key: key, vKey: vKey, path: tree.JoinPath(path, "$key")}
	var err *tree.CompileError
	if d.k, err = c.Compile(kn, d.path); err != nil {
		return nil, err
	}
	if d.v, err = c.Compile(vn, tree.JoinPath(path, "$value")); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *kvDir) KeyNode() *yaml.Node { return d.key }
func (d *kvDir) Name() string        { return "$key" }

const (
	kvEntry = iota
	kvNothing
	kvUnknown
)

// entry renders the key and the value.
func (d *kvDir) entry(r tree.ContentRenderer, sc *scope.Scope, fr *diag.Frame) (string, value.Value, int, error) {
	k, ok, err := r.Value(d.k, sc, fr)
	if err != nil {
		return "", nil, 0, err
	}
	if !ok {
		return "", nil, 0, r.ErrAt(fr, d.key, d.path, "$key gave nothing: it must give a string")
	}
	var ks string
	switch k := k.(type) {
	case string:
		ks = k
	case int64:
		ks = strconv.FormatInt(k, 10)
	case bool:
		ks = strconv.FormatBool(k)
	case value.Unknown:
		return "", nil, kvUnknown, nil
	default:
		return "", nil, 0, r.ErrAt(fr, d.key, d.path, "$key must give a string (an int or bool is turned into text), got "+tree.ValueKind(k))
	}
	v, ok, err := r.Value(d.v, sc, fr)
	if err != nil {
		return "", nil, 0, err
	}
	if !ok {
		return "", nil, kvNothing, nil
	}
	if err := r.Count(fr, d.key, d.path, 1, len(ks)+2); err != nil {
		return "", nil, 0, err
	}
	return ks, v, kvEntry, nil
}

func (d *kvDir) Value(r tree.ContentRenderer, sc *scope.Scope, fr *diag.Frame) (value.Value, bool, error) {
	k, v, state, err := d.entry(r, sc, fr)
	if err != nil || state == kvNothing {
		return nil, false, err
	}
	if state == kvUnknown {
		return value.Unknown{}, true, nil
	}
	m := value.NewMap(1)
	m.Set(k, v)
	if err := r.Count(fr, d.key, d.path, 1, 0); err != nil {
		return nil, false, err
	}
	return m, true, nil
}

// Multi gives one item (or document), or nothing.
func (d *kvDir) Multi(r tree.ContentRenderer, sc *scope.Scope, fr *diag.Frame, _ tree.Position, dst []value.Value) ([]value.Value, error) {
	v, ok, err := d.Value(r, sc, fr)
	return tree.AppendIf(dst, v, ok, err)
}

// WritesKey reports whether the $key is the literal k.
func (d *kvDir) WritesKey(k string) bool {
	c, ok := d.k.(*tree.ConstNode)
	return ok && keyText(c.Value) == k
}

// keyText is the text a literal $key gives, or "" when it gives none.
func keyText(v value.Value) string {
	switch v := v.(type) {
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case bool:
		return strconv.FormatBool(v)
	}
	return ""
}

// KeyValue gives the directive table's entries of
// $key and its partner $value (reference §4 $key).
func KeyValue() []tree.Directive {
	return []tree.Directive{
		{Name: "$key", Kind: tree.KindProducer, Needs: "$value", Patchable: true,
			Section: 4, Summary: "A computed key: with $value, makes one entry.",
			Missing: "$key without $value: $key and $value make one entry together",
			Produce: func(c *tree.Compiler, d tree.DirSet, p tree.KVPair, path string) (tree.Producer, *tree.CompileError) {
				return compileKeyValue(c, p.K, d["$value"].K, p.V, d.Value("$value"), path)
			}},
		{Name: "$value", Kind: tree.KindPartner, Needs: "$key",
			Section: 4, Summary: "The value of the entry whose key $key computes.",
			Missing: "$value without $key: $key and $value make one entry together"},
	}
}

// Describe gives the key's template and the value's, under $value.
func (k *kvDir) Describe() tree.Description {
	return tree.Description{Name: "$key", Key: k.key,
		Bodies: []tree.Body{{Node: k.k}, {Key: k.vKey, Name: "$value", Node: k.v}}}
}
