package engine

import (
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/schema"
	"go.yaml.in/yaml/v3"
)

// $schema checks the variables visible at a mapping against JSON Schemas
// (package schema compiles and runs them). Absent variables with a default
// are bound to it.

type schemaDir struct {
	key  *yaml.Node
	set  *schema.Set
	path string
	inc  schemaIncludes // the sets with files read in (schema_include.go)
}

func compileSchemaDir(key, n *yaml.Node, path string) (*schemaDir, *compileError) {
	s, err := schema.Compile(deref(n))
	if err != nil {
		return nil, fromNodeError(err, path)
	}
	return &schemaDir{key: key, set: s, path: path}, nil
}

func (r *renderer) checkSchema(d *schemaDir, sc *scope, fr *frame) (*scope, error) {
	set, err := r.schemaSet(d, fr)
	if err != nil {
		return nil, err
	}
	defaults, failures, at := set.Check(func(name string) (Value, bool) {
		v, ok := sc.lookup(name)
		if !ok {
			return nil, false
		}
		out, present, err := celenv.FromCEL(v)
		if err != nil || !present {
			return nil, true
		}
		return out, true
	})
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
		return nil, r.errAt(fr, key, d.path, msg)
	}
	if len(defaults) == 0 {
		return sc, nil
	}
	inner := newScopeCap(sc, len(defaults))
	for _, b := range defaults {
		inner.bindValue(b.Name, b.Value)
	}
	return inner, nil
}
