package scope

import (
	"sort"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// Scope is one level of the variable stack. Child nodes see their parents'
// bindings; a binding shadows the same name further up. It implements
// cel-go's interpreter.Activation, so a program evaluates against it
// directly, without copying variables into a map.
type Scope struct {
	parent *Scope
	binds  []scopeVar
	// room for two bindings (the variables of a $for, a small $let), so a
	// small scope is one allocation of 128 bytes
	inline [2]scopeVar
}

// scopeVar is one binding. A binding made from an engine value (a variable, an
// entry of a map that $for walks, a plain $let, $with or schema default)
// keeps that value in raw and makes its CEL form only when CEL asks for it,
// so that `${{ name }}` gives the engine value back with no trip through
// CEL values. val is the CEL form; it is nil until first asked for when raw
// is set.
type scopeVar struct {
	name string
	val  ref.Val
	raw  value.Value
}

// New returns a child scope with room for n bindings.
func New(parent *Scope, n int) *Scope {
	s := &Scope{parent: parent}
	if n <= len(s.inline) {
		s.binds = s.inline[:0]
	} else {
		s.binds = make([]scopeVar, 0, n)
	}
	return s
}

var _ interpreter.Activation = (*Scope)(nil)

// Bind adds or replaces name in this level with a CEL value.
func (s *Scope) Bind(name string, v ref.Val) {
	s.Set(s.slot(name), v)
}

// BindValue adds or replaces name in this level with an engine value.
func (s *Scope) BindValue(name string, v value.Value) {
	s.SetValue(s.slot(name), v)
}

// slot returns the index of name in this level, adding it if need be.
func (s *Scope) slot(name string) int {
	for i := range s.binds {
		if s.binds[i].name == name {
			return i
		}
	}
	s.binds = append(s.binds, scopeVar{name: name})
	return len(s.binds) - 1
}

// Set gives binding i a CEL value.
func (s *Scope) Set(i int, v ref.Val) {
	s.binds[i].val, s.binds[i].raw = v, nil
}

// SetValue gives binding i an engine value. Only the kinds that come back
// unchanged from CEL (see celenv.FromCEL) are kept as they are; anything else, and
// null, is converted at once.
func (s *Scope) SetValue(i int, v value.Value) {
	switch v.(type) {
	case string, int64, float64, bool, *value.Map, []value.Value, value.Unknown:
		s.binds[i].val, s.binds[i].raw = nil, v
	default:
		s.Set(i, celenv.ToCEL(v))
	}
}

// find returns the innermost binding of name.
func (s *Scope) find(name string) *scopeVar {
	for c := s; c != nil; c = c.parent {
		for i := len(c.binds) - 1; i >= 0; i-- {
			if c.binds[i].name == name {
				return &c.binds[i]
			}
		}
	}
	return nil
}

// Lookup finds the innermost scopeVar of name as a CEL value.
func (s *Scope) Lookup(name string) (ref.Val, bool) {
	b := s.find(name)
	if b == nil {
		return nil, false
	}
	if b.val == nil && b.raw != nil {
		b.val = celenv.ToCEL(b.raw)
	}
	return b.val, true
}

// Has reports whether name is bound anywhere in the chain.
func (s *Scope) Has(name string) bool {
	return s.find(name) != nil
}

// ResolveName implements interpreter.Activation.
func (s *Scope) ResolveName(name string) (any, bool) {
	v, ok := s.Lookup(name)
	if !ok {
		return nil, false
	}
	return v, true
}

// Parent implements interpreter.Activation. The chain is walked by
// ResolveName itself, so cel-go never needs to.
func (s *Scope) Parent() interpreter.Activation { return nil }

// Root binds the caller's variables; each gets its CEL form on first
// use (Lookup).
func Root(vars map[string]value.Value) *Scope {
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	sc := &Scope{binds: make([]scopeVar, len(names))}
	for i, k := range names {
		sc.binds[i].name = k
		sc.SetValue(i, vars[k])
	}
	return sc
}

// Binding gives the innermost binding of name: the engine value it was
// made from (raw), or else its CEL form (val).
func (s *Scope) Binding(name string) (raw value.Value, val ref.Val, ok bool) {
	b := s.find(name)
	if b == nil {
		return nil, nil, false
	}
	return b.raw, b.val, true
}

// Names gives every name bound in the chain, innermost first, once each.
func (s *Scope) Names() []string {
	var names []string
	seen := map[string]bool{}
	for c := s; c != nil; c = c.parent {
		for _, b := range c.binds {
			if !seen[b.name] {
				seen[b.name] = true
				names = append(names, b.name)
			}
		}
	}
	return names
}
