package engine

import (
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// scope is one level of the variable stack. Child nodes see their parents'
// bindings; a binding shadows the same name further up. It implements
// cel-go's interpreter.Activation, so a program evaluates against it
// directly, without copying variables into a map.
type scope struct {
	parent *scope
	names  []string
	vals   []ref.Val
	// room for the first few bindings, so a small scope is one allocation
	inlineNames [3]string
	inlineVals  [3]ref.Val
}

// newScopeCap returns a child scope with room for n bindings.
func newScopeCap(parent *scope, n int) *scope {
	s := &scope{parent: parent}
	if n <= len(s.inlineNames) {
		s.names, s.vals = s.inlineNames[:0], s.inlineVals[:0]
	} else {
		s.names, s.vals = make([]string, 0, n), make([]ref.Val, 0, n)
	}
	return s
}

var _ interpreter.Activation = (*scope)(nil)

func newScope(parent *scope) *scope { return &scope{parent: parent} }

// bind adds or replaces name in this level.
func (s *scope) bind(name string, v ref.Val) {
	for i, n := range s.names {
		if n == name {
			s.vals[i] = v
			return
		}
	}
	s.names = append(s.names, name)
	s.vals = append(s.vals, v)
}

// lookup finds the innermost binding of name.
func (s *scope) lookup(name string) (ref.Val, bool) {
	for c := s; c != nil; c = c.parent {
		for i := len(c.names) - 1; i >= 0; i-- {
			if c.names[i] == name {
				return c.vals[i], true
			}
		}
	}
	return nil, false
}

// has reports whether name is bound anywhere in the chain.
func (s *scope) has(name string) bool {
	_, ok := s.lookup(name)
	return ok
}

// ResolveName implements interpreter.Activation.
func (s *scope) ResolveName(name string) (any, bool) {
	v, ok := s.lookup(name)
	if !ok {
		return nil, false
	}
	return v, true
}

// Parent implements interpreter.Activation. The chain is walked by
// ResolveName itself, so cel-go never needs to.
func (s *scope) Parent() interpreter.Activation { return nil }
