package check

import "testing"

// TestOverloadProblem_onlyWhereRenderFails pins which of the checker's
// overload errors check reports, in a render's words: a call that fails
// at render for every value of its argument types, optionals included,
// and nothing where a render works (equality, in, indexing, && and ||,
// an optional's own methods on an optional, a list or a map given to a
// function, a dyn argument).
func TestOverloadProblem_onlyWhereRenderFails(t *testing.T) {
	cases := []struct{ checker, want string }{
		{`found no matching overload for '_+_' applied to '(optional_type(int), int)'`, `no matching overload for optional_type + int`},
		{`found no matching overload for '_+_' applied to '(list(int), optional_type(list(string)))'`, `no matching overload for list + optional_type; to add one element to a list, wrap it in a list: xs + [x]`},
		{`found no matching overload for '_<_' applied to '(optional_type(int), int)'`, `no matching overload for optional_type < int`},
		{`found no matching overload for '!_' applied to '(optional_type(bool))'`, `no matching overload for !optional_type; CEL has no truthiness: write truthy(x) for Helm's notion of set, or compare explicitly, e.g. x != '', size(x) > 0 or x != null`},
		{`found no matching overload for 'size' applied to '(optional_type(string))'`, `no matching overload for size(optional_type)`},
		{`found no matching overload for 'size' applied to 'optional_type(string).()'`, `no matching overload for optional_type.size()`},
		{`found no matching overload for 'startsWith' applied to 'optional_type(string).(string)'`, `no matching overload for optional_type.startsWith(string)`},
		{`found no matching overload for 'contains' applied to 'string.(optional_type(string))'`, `no matching overload for string.contains(optional_type)`},
		{`found no matching overload for 'hasValue' applied to 'int.()'`, `no matching overload for int.hasValue()`},
		{`found no matching overload for 'startsWith' applied to 'int.(string)'`, `no matching overload for int.startsWith(string)`},
		{`found no matching overload for '_?_:_' applied to '(optional_type(int), int, int)'`, `no matching overload for optional_type ? … : …; CEL has no truthiness: write truthy(x) for Helm's notion of set, or compare explicitly, e.g. x != '', size(x) > 0 or x != null`},
		{`found no matching overload for '_?_:_' applied to '(x_celyaml_schema_v.m, int, int)'`, `no matching overload for map ? … : …; CEL has no truthiness: write truthy(x) for Helm's notion of set, or compare explicitly, e.g. x != '', size(x) > 0 or x != null`},
		{`found no matching overload for '_+_' applied to '(list(x_celyaml_schema_v.l.@idx), int)'`, `no matching overload for list + int; to add one element to a list, wrap it in a list: xs + [x]`},
		{`found no matching overload for '_?_:_' applied to '(bool, int, string)'`, ``},
		{`found no matching overload for 'orValue' applied to 'optional_type(int).(string)'`, ``},
		{`found no matching overload for 'or' applied to 'optional_type(int).(int)'`, ``},
		{`found no matching overload for '_[?_]' applied to '(int, int)'`, ``},
		{`found no matching overload for '_==_' applied to '(optional_type(int), int)'`, ``},
		{`found no matching overload for '@in' applied to '(optional_type(int), list(int))'`, ``},
		{`found no matching overload for '_&&_' applied to '(string, bool)'`, ``},
		{`found no matching overload for 'size' applied to 'list(int).(int)'`, ``},
		{`found no matching overload for 'join' applied to '(list(int), dyn)'`, ``},
		{`found no matching overload for '_+_' applied to '(list(int), list(string))'`, ``},
		{`undefined field 'x'`, ``},
	}
	for _, c := range cases {
		if got := overloadProblem(c.checker); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.checker, got, c.want)
		}
	}
}
