package schema

import (
	"strconv"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// inBranch reports whether a schema location lies in a then or else
// branch. A property named "then" or "else" counts too, which only makes
// the check more careful.
func inBranch(url string) bool {
	_, frag, _ := strings.Cut(url, "#")
	for seg := range strings.SplitSeq(frag, "/") {
		if seg == "then" || seg == "else" {
			return true
		}
	}
	return false
}

// shapeOnly reports whether a failure depends only on the kind of its
// instance, its keys or its length, and not on the values inside it:
// those are known even when values inside are not.
func shapeOnly(k jsonschema.ErrorKind) bool {
	switch k.(type) {
	case *kind.Type, *kind.Required, *kind.AdditionalProperties, *kind.PropertyNames,
		*kind.Dependency, *kind.DependentRequired, *kind.MinProperties, *kind.MaxProperties,
		*kind.MinItems, *kind.MaxItems, *kind.AdditionalItems:
		return true
	}
	return false
}

// unknownAt reports whether the part of v at an instance location is an
// Unknown or lies inside one, or, with inside set, holds one anywhere.
func unknownAt(v value.Value, loc []string, inside bool) bool {
	for _, tok := range loc {
		switch x := v.(type) {
		case *value.Map:
			v, _ = x.Get(tok)
		case []value.Value:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return false
			}
			v = x[i]
		case value.Unknown:
			return true
		default:
			return false
		}
	}
	if inside {
		return value.HasUnknown(v)
	}
	_, unknown := v.(value.Unknown)
	return unknown
}

// maxTypedDepth bounds how deep Typed follows a value and its schema.
const maxTypedDepth = 64

// Typed gives v with each Unknown of dynamic type in it typed as its
// schema says (schemaType): `image: {type: string}` makes an unknown image
// an unknown string, and a value unknown as a whole whose schema has
// `properties` an unknown object whose fields have their types, so that
// `values.image` reads an unknown string. It follows `properties` into
// maps and `items` into lists, and `$ref`.
// changed is false when nothing was typed; v itself is never modified,
// and what changed is copied.
func Typed(v value.Value, sch *jsonschema.Schema) (out value.Value, changed bool) {
	return typed(v, sch, 0)
}

func typed(v value.Value, sch *jsonschema.Schema, depth int) (value.Value, bool) {
	sch = resolveRef(sch)
	if sch == nil || depth > maxTypedDepth {
		return v, false
	}
	switch x := v.(type) {
	case value.Unknown:
		if !x.Type.IsDynamic() {
			return v, false // it came typed: its own type is what it will be
		}
		if t := schemaType(sch, depth); !t.IsDynamic() {
			return value.UnknownOf(t), true
		}
	case *value.Map:
		if len(sch.Properties) == 0 {
			return v, false
		}
		var out *value.Map
		for i := 0; i < x.Len(); i++ {
			k, e := x.At(i)
			ne, changed := typed(e, sch.Properties[k], depth+1)
			if changed {
				if out == nil {
					out = x.Clone(0)
				}
				out.SetAt(i, ne)
			}
		}
		if out != nil {
			return out, true
		}
	case []value.Value:
		items := sch.Items2020
		if is, ok := sch.Items.(*jsonschema.Schema); ok && items == nil {
			items = is
		}
		if items == nil {
			return v, false
		}
		var out []value.Value
		for i, e := range x {
			ne, changed := typed(e, items, depth+1)
			if changed {
				if out == nil {
					out = append([]value.Value(nil), x...)
				}
				out[i] = ne
			}
		}
		if out != nil {
			return out, true
		}
	}
	return v, false
}

// resolveRef follows a schema that is only a reference to the one it
// names.
func resolveRef(sch *jsonschema.Schema) *jsonschema.Schema {
	for range maxTypedDepth {
		if sch == nil || sch.Ref == nil || sch.Types != nil || len(sch.Properties) > 0 {
			return sch
		}
		sch = sch.Ref
	}
	return nil
}

// primitiveType is the one primitive type a schema allows, or dynamic:
// from `type` (null aside; integer and number are both numbers), or else
// from an `enum` of strings.
func primitiveType(sch *jsonschema.Schema) value.Type {
	if sch.Types != nil {
		t := value.TypeDynamic
		for _, name := range sch.Types.ToStrings() {
			var this value.Type
			switch name {
			case "null":
				continue
			case "string":
				this = value.TypeString
			case "integer", "number":
				this = value.TypeNumber
			case "boolean":
				this = value.TypeBool
			default:
				return value.TypeDynamic
			}
			if t != value.TypeDynamic && t != this {
				return value.TypeDynamic
			}
			t = this
		}
		return t
	}
	if sch.Enum != nil && len(sch.Enum.Values) > 0 {
		for _, e := range sch.Enum.Values {
			if _, ok := e.(string); !ok {
				return value.TypeDynamic
			}
		}
		return value.TypeString
	}
	return value.TypeDynamic
}

// schemaType is the type a schema gives a value unknown as a whole: the
// one primitive type it allows (primitiveType); for an object with
// `properties`, an object of them, each typed the same way; for one with
// only `additionalProperties`, a map of its type; for an array with
// `items`, a list of its type; dynamic for anything else. Inside the
// engine a field of such an unknown has its property's type; written out,
// an unknown object or collection is dynamic (value.Type.Written), since
// the value may hold keys the schema does not name.
func schemaType(sch *jsonschema.Schema, depth int) value.Type {
	sch = resolveRef(sch)
	if sch == nil || depth > maxTypedDepth {
		return value.TypeDynamic
	}
	if t := primitiveType(sch); !t.IsDynamic() {
		return t
	}
	only := func(name string) bool {
		if sch.Types == nil {
			return false
		}
		found := false
		for _, n := range sch.Types.ToStrings() {
			switch n {
			case "null":
			case name:
				found = true
			default:
				return false
			}
		}
		return found
	}
	switch {
	case len(sch.Properties) > 0 && (sch.Types == nil || only("object")):
		attrs := make(map[string]value.Type, len(sch.Properties))
		for name, p := range sch.Properties {
			attrs[name] = schemaType(p, depth+1)
		}
		return value.ObjectOf(attrs)
	case only("object"):
		if ap, ok := sch.AdditionalProperties.(*jsonschema.Schema); ok {
			return value.MapOf(schemaType(ap, depth+1))
		}
	case only("array"):
		items := sch.Items2020
		if is, ok := sch.Items.(*jsonschema.Schema); ok && items == nil {
			items = is
		}
		if items != nil {
			return value.ListOf(schemaType(items, depth+1))
		}
	}
	return value.TypeDynamic
}
