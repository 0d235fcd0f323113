package value

import "testing"

// Types are written as Terraform writes them in configuration, compared
// by structure, and give the types of their fields and elements.
func TestType_namesComparesAndReadsParts(t *testing.T) {
	obj := ObjectOf(map[string]Type{"image": TypeString, "env": MapOf(TypeString), "ports": ListOf(TypeNumber)})
	if got, want := obj.String(), "object({env=map(string), image=string, ports=list(number)})"; got != want {
		t.Errorf("String: got %s, want %s", got, want)
	}
	if got, want := TupleOf(TypeString, SetOf(TypeBool)).String(), "tuple([string, set(bool)])"; got != want {
		t.Errorf("String: got %s, want %s", got, want)
	}
	same := ObjectOf(map[string]Type{"ports": ListOf(TypeNumber), "image": TypeString, "env": MapOf(TypeString)})
	if !obj.Equal(same) || obj.Equal(ObjectOf(map[string]Type{"image": TypeString})) || ListOf(TypeString).Equal(SetOf(TypeString)) {
		t.Error("Equal compares by structure")
	}
	for _, c := range []struct {
		of   Type
		name string
		want string // "" when a value of type of has no such field
	}{
		{obj, "image", "string"},
		{MapOf(TypeNumber), "any", "number"},
		{TypeDynamic, "x", "dynamic"},
		{obj, "absent", ""},
		{TypeString, "x", ""},
	} {
		ft, ok := c.of.Field(c.name)
		if got := map[bool]string{true: ft.String(), false: ""}[ok]; got != c.want {
			t.Errorf("%s.Field(%s): got %q, want %q", c.of, c.name, got, c.want)
		}
	}
	if e, ok := TupleOf(TypeString, TypeBool).Index(1); !ok || e != TypeBool {
		t.Errorf("Index(1) of a tuple: %s %v", e, ok)
	}
	if _, ok := TupleOf(TypeString).Index(3); ok {
		t.Error("Index past a tuple's end")
	}
	if obj.HasDynamic() || !ListOf(TypeDynamic).HasDynamic() || ListOf(TypeString).HasDynamic() {
		t.Error("HasDynamic")
	}
}

// A primitive unknown is boxed without allocating; a compound one keeps
// its type through the box.
func TestUnknownOf_primitivesAllocateNothing(t *testing.T) {
	var sink Value
	if n := testing.AllocsPerRun(100, func() { sink = UnknownOf(TypeString) }); n != 0 {
		t.Errorf("UnknownOf(TypeString) allocates %v times", n)
	}
	sink = UnknownOf(ListOf(TypeString))
	if u, ok := sink.(Unknown); !ok || u.Type.String() != "list(string)" {
		t.Errorf("got %#v", sink)
	}
}
