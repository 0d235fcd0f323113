package directive

import (
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/schema"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"go.yaml.in/yaml/v3"
)

// $schema checks the variables visible at a mapping against JSON Schemas
// (package schema compiles and runs them). Absent variables with a default
// are bound to it.

type schemaDir struct {
	key  *yaml.Node
	val  *yaml.Node // the mapping of variables to schemas, kept for check (KeepYAML)
	set  *schema.Set
	path string
	inc  schemaIncludes // the sets with files read in (schema_include.go)
}

func compileSchemaDir(key, n *yaml.Node, path string) (*schemaDir, *tree.CompileError) {
	s, err := schema.Compile(tree.Deref(n))
	if err != nil {
		return nil, tree.FromNodeError(err, path)
	}
	return &schemaDir{key: key, set: s, path: path}, nil
}

func checkSchema(r tree.PreludeRenderer, d *schemaDir, sc *scope.Scope, fr *diag.Frame) (*scope.Scope, error) {
	set, err := schemaSet(r, d, fr, d.path)
	if err != nil {
		return nil, err
	}
	defaults, failures, at := set.CheckWith(func(name string) (value.Value, bool) {
		v, ok := sc.Lookup(name)
		if !ok {
			return nil, false
		}
		out, present, err := celenv.FromCEL(v)
		if err != nil || !present {
			return nil, true
		}
		return out, true
	}, r.Options().HideKeys)
	if len(failures) > 0 {
		msg := "the variables do not match the schema:"
		if len(failures) == 1 {
			msg = "the variables do not match the schema: " + failures[0]
		} else {
			msg += "\n    " + strings.Join(failures, "\n    ")
		}
		key := d.key
		if at != nil {
			key = at // the entry of the (first) variable that failed: reference §4
		}
		return nil, r.ErrAt(fr, key, d.path, msg)
	}
	if len(defaults) == 0 {
		return sc, nil
	}
	inner := scope.New(sc, len(defaults))
	for _, b := range defaults {
		inner.BindValue(b.Name, b.Value)
	}
	return inner, nil
}

func (d *schemaDir) Run(r tree.PreludeRenderer, sc *scope.Scope, fr *diag.Frame) (*scope.Scope, bool, error) {
	sc, err := checkSchema(r, d, sc, fr)
	return sc, false, err
}

// Schema gives the directive table's entries of
// $schema (reference §4 $schema).
func Schema() []tree.Directive {
	return []tree.Directive{
		{Name: "$schema", Kind: tree.KindPrelude,
			Bound: tree.BindEntries, BoundKind: "schema", Declares: true, Section: 4,
			Summary: "Declares and validates variables: a mapping from variable names to JSON Schemas, type names, or {$include: FILE} for a schema kept in a JSON or YAML file.",
			Prelude: func(c *tree.Compiler, d tree.DirSet, p tree.KVPair, path string) (tree.Prelude, *tree.CompileError) {
				s, err := compileSchemaDir(p.K, p.V, tree.JoinPath(path, "$schema"))
				if err != nil {
					return nil, err
				}
				if c.KeepYAML {
					s.val = tree.Deref(p.V)
				}
				return s, nil
			}},
	}
}

// Set is the compiled schemas, each variable's as written, and the
// files they include: what an editor shows of a variable.
func (s *schemaDir) Set() *schema.Set { return s.set }

// Describe gives the variables the schema declares, each with its
// schema when the compiler kept the YAML (tree.Compiler.KeepYAML).
func (s *schemaDir) Describe() tree.Description {
	d := tree.Description{Name: "$schema", Key: s.key}
	for _, v := range s.set.Variables() {
		d.Binds = append(d.Binds, tree.BoundName{Name: v.Name, Node: v.Key, Value: entryValue(s.val, v.Key)})
	}
	return d
}

// entryValue is the value of the entry of mapping m whose key is key.
func entryValue(m, key *yaml.Node) *yaml.Node {
	for i := 0; m != nil && i+1 < len(m.Content); i += 2 {
		if tree.Deref(m.Content[i]) == key {
			return m.Content[i+1]
		}
	}
	return nil
}
