package value

import (
	"strconv"
	"testing"
)

// keysOf lists m's keys with their values, in order.
func keysOf(m *Map) string {
	out := ""
	for i := 0; i < m.Len(); i++ {
		k, v := m.At(i)
		out += k + "=" + strconv.Itoa(int(v.(int64))) + " "
	}
	return out
}

// Delete keeps the order of the other entries, in a small map and in one
// large enough to have an index, and the index stays right.
func TestMap_deleteKeepsOrderAndIndex(t *testing.T) {
	for _, n := range []int{3, 12} {
		m := NewMap(n)
		for i := range n {
			m.Set("k"+strconv.Itoa(i), int64(i))
		}
		m.Delete("k1")
		m.Delete("absent")
		want := "k0=0 "
		for i := 2; i < n; i++ {
			want += "k" + strconv.Itoa(i) + "=" + strconv.Itoa(i) + " "
		}
		if got := keysOf(m); got != want {
			t.Errorf("n=%d: after Delete got %q, want %q", n, got, want)
		}
		for i := 2; i < n; i++ {
			if v, ok := m.Get("k" + strconv.Itoa(i)); !ok || v != int64(i) {
				t.Errorf("n=%d: Get(k%d) = %v, %v after Delete", n, i, v, ok)
			}
		}
		if m.Has("k1") {
			t.Errorf("n=%d: k1 still present", n)
		}
	}
}

// A clone has the same entries and changes apart from the original.
func TestMap_cloneIsApart(t *testing.T) {
	for _, n := range []int{2, 10} {
		m := NewMap(n)
		for i := range n {
			m.Set("k"+strconv.Itoa(i), int64(i))
		}
		c := m.Clone(1)
		c.SetAt(0, int64(100))
		c.Set("new", int64(7))
		c.Delete("k1")
		if v, _ := m.Get("k0"); v != int64(0) {
			t.Errorf("n=%d: the original's k0 changed to %v", n, v)
		}
		if m.Has("new") || !m.Has("k1") || m.Len() != n {
			t.Errorf("n=%d: the original changed: %s", n, keysOf(m))
		}
		if v, _ := c.Get("k0"); v != int64(100) || !c.Has("new") || c.Has("k1") {
			t.Errorf("n=%d: the clone is wrong: %s", n, keysOf(c))
		}
	}
	if c := (*Map)(nil).Clone(2); c.Len() != 0 {
		t.Errorf("a clone of nil has %d entries", c.Len())
	}
}

func TestHasUnknown_findsAnUnknownAtAnyDepth(t *testing.T) {
	inner := NewMap(1)
	inner.Set("image", UnknownOf(TypeString))
	outer := NewMap(2)
	outer.Set("name", "web")
	outer.Set("spec", []Value{int64(1), inner})
	known := NewMap(1)
	known.Set("name", "web")
	for _, c := range []struct {
		name string
		v    Value
		want bool
	}{
		{"a bare unknown", Unknown{}, true},
		{"an unknown in a map in a list in a map", outer, true},
		{"a known map", known, false},
		{"a known list", []Value{"a", int64(2), nil}, false},
		{"a scalar", "text", false},
		{"null", nil, false},
	} {
		if got := HasUnknown(c.v); got != c.want {
			t.Errorf("%s: HasUnknown = %v, want %v", c.name, got, c.want)
		}
	}
}
