package value

import (
	"slices"
	"strings"
)

// Unknown stands for a value that is not known yet. It flows through CEL:
// an expression that reads it gives Unknown, one that does not stays known.
//
// Type is what is known of the value it stands for: Unknown{} (TypeDynamic)
// may become anything, Unknown{Type: TypeString} only a string (or null),
// and an Unknown of a collection or object type only such a value
// (Terraform's list(string), object({image=string}) and so on). Resources
// that convert a value to a schema, such as Kubernetes manifests, refuse
// an untyped unknown where they expect a string, so the engine keeps the
// most precise type it knows (the unknown-values guide). Two unknowns are
// equal when their types are; a type switch on Unknown matches every one
// of them. UnknownOf gives the boxed value of a primitive type without
// allocating.
type Unknown struct {
	Type Type
}

// Kind is the kind of a Type: one of Terraform's.
type Kind uint8

// The kinds of types. KindNumber covers int64 and float64.
const (
	KindDynamic Kind = iota
	KindString
	KindNumber
	KindBool
	KindList
	KindSet
	KindMap
	KindObject
	KindTuple
	numPrimitives = KindBool + 1
)

// Type is the type of the value an Unknown stands for, as Terraform types
// values: a primitive, dynamic when nothing says, or a list, set or map of
// one element type, an object of named attributes or a tuple of element
// types, nested. The zero Type is TypeDynamic. Types are compared with
// Equal; == holds for equal primitives and for the same compound value.
type Type struct {
	kind Kind
	c    *compound // nil for primitives and dynamic
}

// compound holds what a collection, object or tuple type is made of.
type compound struct {
	elem  Type     // list, set, map
	elems []Type   // tuple, and an object's attribute types by names
	names []string // object: attribute names, sorted
}

// The primitive types.
var (
	TypeDynamic = Type{}
	TypeString  = Type{kind: KindString}
	TypeNumber  = Type{kind: KindNumber}
	TypeBool    = Type{kind: KindBool}
)

// ListOf, SetOf and MapOf give the collection types of element type elem.
func ListOf(elem Type) Type { return Type{kind: KindList, c: &compound{elem: elem}} }

// SetOf gives the set type of element type elem.
func SetOf(elem Type) Type { return Type{kind: KindSet, c: &compound{elem: elem}} }

// MapOf gives the map type of element type elem.
func MapOf(elem Type) Type { return Type{kind: KindMap, c: &compound{elem: elem}} }

// TupleOf gives the tuple type of the element types elems.
func TupleOf(elems ...Type) Type {
	return Type{kind: KindTuple, c: &compound{elems: slices.Clone(elems)}}
}

// ObjectOf gives the object type of the attributes attrs.
func ObjectOf(attrs map[string]Type) Type {
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	slices.Sort(names)
	types := make([]Type, len(names))
	for i, n := range names {
		types[i] = attrs[n]
	}
	return Type{kind: KindObject, c: &compound{names: names, elems: types}}
}

// Kind gives t's kind.
func (t Type) Kind() Kind { return t.kind }

// IsPrimitive reports whether t is a string, number or bool type.
func (t Type) IsPrimitive() bool { return t.kind >= KindString && t.kind <= KindBool }

// IsDynamic reports whether t says nothing of the value.
func (t Type) IsDynamic() bool { return t.kind == KindDynamic }

// Elem gives the element type of a list, set or map type (dynamic for
// any other).
func (t Type) Elem() Type {
	if t.c == nil {
		return TypeDynamic
	}
	return t.c.elem
}

// Elems gives the element types of a tuple type. The slice must not be
// modified.
func (t Type) Elems() []Type {
	if t.kind != KindTuple {
		return nil
	}
	return t.c.elems
}

// AttributeNames gives the attribute names of an object type, sorted. The
// slice must not be modified.
func (t Type) AttributeNames() []string {
	if t.kind != KindObject {
		return nil
	}
	return t.c.names
}

// Attribute gives the type of an object type's attribute name.
func (t Type) Attribute(name string) (Type, bool) {
	if t.kind != KindObject {
		return TypeDynamic, false
	}
	if i, found := slices.BinarySearch(t.c.names, name); found {
		return t.c.elems[i], true
	}
	return TypeDynamic, false
}

// Field gives the type of what a field selection `.name` on a value of
// type t reads: an object's attribute, a map's element, dynamic for a
// dynamic value; ok is false when a value of type t has no such field.
func (t Type) Field(name string) (Type, bool) {
	switch t.kind {
	case KindDynamic:
		return TypeDynamic, true
	case KindObject:
		return t.Attribute(name)
	case KindMap:
		return t.c.elem, true
	}
	return TypeDynamic, false
}

// Index gives the type of the i-th element of a value of type t: a list's
// or set's element type, a tuple's i-th, dynamic for a dynamic value.
func (t Type) Index(i int) (Type, bool) {
	switch t.kind {
	case KindDynamic:
		return TypeDynamic, true
	case KindList, KindSet:
		return t.c.elem, true
	case KindTuple:
		if i >= 0 && i < len(t.c.elems) {
			return t.c.elems[i], true
		}
	}
	return TypeDynamic, false
}

// Equal reports whether t and u are the same type.
func (t Type) Equal(u Type) bool {
	if t.kind != u.kind {
		return false
	}
	if t.c == u.c {
		return true
	}
	if t.c == nil || u.c == nil {
		return false
	}
	switch t.kind {
	case KindList, KindSet, KindMap:
		return t.c.elem.Equal(u.c.elem)
	case KindObject:
		if !slices.Equal(t.c.names, u.c.names) {
			return false
		}
	}
	return slices.EqualFunc(t.c.elems, u.c.elems, Type.Equal)
}

// HasDynamic reports whether t is dynamic or holds a dynamic type.
func (t Type) HasDynamic() bool {
	switch t.kind {
	case KindDynamic:
		return true
	case KindList, KindSet, KindMap:
		return t.c.elem.HasDynamic()
	case KindObject, KindTuple:
		return slices.ContainsFunc(t.c.elems, Type.HasDynamic)
	}
	return false
}

// String names the type as Terraform writes it in configuration:
// string, list(number), map(bool), object({image=string}),
// tuple([string, number]); dynamic for any.
func (t Type) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t Type) write(b *strings.Builder) {
	switch t.kind {
	case KindString:
		b.WriteString("string")
	case KindNumber:
		b.WriteString("number")
	case KindBool:
		b.WriteString("bool")
	case KindList, KindSet, KindMap:
		b.WriteString([...]string{KindList: "list", KindSet: "set", KindMap: "map"}[t.kind])
		b.WriteByte('(')
		t.c.elem.write(b)
		b.WriteByte(')')
	case KindObject:
		b.WriteString("object({")
		for i, n := range t.c.names {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(n)
			b.WriteByte('=')
			t.c.elems[i].write(b)
		}
		b.WriteString("})")
	case KindTuple:
		b.WriteString("tuple([")
		for i, e := range t.c.elems {
			if i > 0 {
				b.WriteString(", ")
			}
			e.write(b)
		}
		b.WriteString("])")
	default:
		b.WriteString("dynamic")
	}
}

// boxedUnknowns holds one boxed Unknown per primitive type, so that
// UnknownOf allocates nothing for them.
var boxedUnknowns = [numPrimitives]Value{
	Unknown{Type: TypeDynamic}, Unknown{Type: TypeString}, Unknown{Type: TypeNumber}, Unknown{Type: TypeBool},
}

// UnknownOf gives the unknown value of type t. It allocates nothing for
// dynamic and the primitive types.
func UnknownOf(t Type) Value {
	if t.kind < numPrimitives {
		return boxedUnknowns[t.kind]
	}
	return Unknown{Type: t}
}

// TypeOf gives the type of a value as an Unknown would carry it: string,
// number (int64, float64) and bool for known scalars, an Unknown's own
// type, and TypeDynamic for anything else (null, maps and lists, whose
// Terraform type depends on where they go).
func TypeOf(v Value) Type {
	switch x := v.(type) {
	case string:
		return TypeString
	case int64, float64:
		return TypeNumber
	case bool:
		return TypeBool
	case Unknown:
		return x.Type
	}
	return TypeDynamic
}

// TypeOfRendered gives the type of a rendered value as the functions
// write it out once known: TypeOf for a scalar, null or an unknown, an
// object of its keys for a map and a tuple of its length for a list,
// nested, the unknowns inside keeping their own types. A $for over an
// unknown collection uses it for the items its body gives.
func TypeOfRendered(v Value) Type {
	switch x := v.(type) {
	case *Map:
		attrs := make(map[string]Type, x.Len())
		for i := 0; i < x.Len(); i++ {
			k, e := x.At(i)
			attrs[k] = TypeOfRendered(e)
		}
		return ObjectOf(attrs)
	case []Value:
		elems := make([]Type, len(x))
		for i, e := range x {
			elems[i] = TypeOfRendered(e)
		}
		return TupleOf(elems...)
	}
	return TypeOf(v)
}

// Written gives the type that an unknown of type t is written out with
// (to Terraform): its own type when it is a primitive, dynamic for any
// other. The engine writes a known list as a tuple of its length and a
// known map as an object of its keys, and a $schema default or a merge may
// add keys to an object, so no collection, object or tuple type can
// promise the type of the value that will replace the unknown, and
// Terraform checks that a planned value's type holds at apply ("wrong
// final value type"); and kubernetes_manifest accepts no unknown of a
// collection or object type, only a dynamic one, which it types itself.
// Inside the engine the whole type serves: a field of an unknown object
// has its attribute's type, and package kubetypes checks an unknown's type
// against the place it lands.
func (t Type) Written() Type {
	if t.IsPrimitive() {
		return t
	}
	return TypeDynamic
}
