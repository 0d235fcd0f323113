package tree

import (
	"context"
	"errors"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/options"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/google/cel-go/common/types/ref"
	"go.yaml.in/yaml/v3"
)

// The walker as the compiled tree sees it: what a directive's compiled
// node is given when it renders. Package walk implements Renderer; the
// tree never imports it.

// Renderer is one render's state and the walker's operations on it, as a
// compiled node is given them (package walk's *Renderer, the only
// implementation). It is the sum of the small interfaces below; a helper
// that needs one of them takes that one. A SelfRenderer and a Pending take
// it whole: an overlay queues itself, a $chart document renders, counts
// and reads files, and applying an overlay does all of that.
type Renderer interface {
	ContentRenderer
	Queue
}

// ContentRenderer is what a Producer renders through: bodies, CEL, errors,
// the limits and the render's inputs; never the queue of overlays, which
// only an overlay document or a transform fills.
type ContentRenderer interface {
	Walker
	Evaluator
	Reporter
	Budget
	Inputs
}

// PreludeRenderer is what a Prelude runs through: it evaluates and
// renders values ($let), reports, and reads the engine options and the
// files $schema includes; a prelude produces no content, so it counts
// nothing against the limits and queues nothing.
type PreludeRenderer interface {
	Walker
	Evaluator
	Reporter
	Inputs
}

// Walker renders compiled nodes: a directive's bodies, an overlay's patch.
type Walker interface {
	// Value renders t in value position.
	Value(t Node, sc *scope.Scope, fr *diag.Frame) (value.Value, bool, error)
	// Multi renders t in item or stream position, appending what it gives.
	Multi(t Node, sc *scope.Scope, fr *diag.Frame, pos Position, dst []value.Value) ([]value.Value, error)
	// Splice renders a body written as a YAML sequence in item or stream
	// position: its items are added in place.
	Splice(body Node, key *yaml.Node, path string, sc *scope.Scope, fr *diag.Frame, pos Position, dst []value.Value) ([]value.Value, error)
	// Merge builds the mapping from its producers and regular keys.
	Merge(m *MapNode, sc *scope.Scope, fr *diag.Frame) (value.Value, bool, error)
	// RunPreludes runs a mapping's $schema, $let and $assert.
	RunPreludes(m *MapNode, sc *scope.Scope, fr *diag.Frame) (*scope.Scope, bool, error)
	// Preamble runs document d when it is a preamble (reference §1).
	Preamble(d Node, sc *scope.Scope, fr *diag.Frame) (next *scope.Scope, pre bool, err error)
}

// Evaluator evaluates the template's CEL expressions in a scope.
type Evaluator interface {
	// EvalExpr evaluates a CEL expression in sc.
	EvalExpr(x *ExprRef, sc *scope.Scope, fr *diag.Frame) (ref.Val, error)
	// EvalBool evaluates a condition; what names it in errors.
	EvalBool(x *ExprRef, sc *scope.Scope, fr *diag.Frame, what string) (val, unknown bool, err error)
	// FastValue reads a chain of field selections from the scope.
	FastValue(path []string, sc *scope.Scope) (value.Value, bool)
}

// Reporter builds the render's positioned errors.
type Reporter interface {
	// ErrAt builds a *diag.Error at node n of the file in fr.
	ErrAt(fr *diag.Frame, n *yaml.Node, path, msg string) *diag.Error
	// ResultErr is the error for an expression's result as a whole.
	ResultErr(fr *diag.Frame, x *ExprRef, err error) error
	// LimitErr is the error for a render that passes the engine option limit.
	LimitErr(fr *diag.Frame, n *yaml.Node, path, limit, msg string) error
}

// Budget counts the render against the engine's limits (reference §7).
type Budget interface {
	Count(fr *diag.Frame, n *yaml.Node, path string, nodes, bytes int) error
	CountValue(fr *diag.Frame, n *yaml.Node, path string, v value.Value) error
	Size(v value.Value) (nodes, bytes int)
	Tick(fr *diag.Frame, n *yaml.Node, path string) error
	Step(fr *diag.Frame, n *yaml.Node, path string) error
}

// Inputs is what a render reads beside the template's text: its context
// and options, the files it includes, the strings its templates write.
type Inputs interface {
	// Context is the render's context: a read through the Loader stops
	// when it is cancelled.
	Context() context.Context
	// Options are the engine options the render runs under.
	Options() *options.Options
	// OpenFile opens the file an $include names.
	OpenFile(fr *diag.Frame, key, pathN *yaml.Node, path, p string) (*CompiledFile, *diag.Frame, error)
	// Written reports the strings that the render's templates write.
	Written() func(string) bool
	// Texts is the render's cache of the files read beside the templates.
	Texts() map[string][]byte
}

// Queue holds the overlays and transforms reached in the stream until
// every document is rendered (reference §8, §10).
type Queue interface {
	// AddPending queues an overlay; AddLate a transform, after every
	// overlay.
	AddPending(p Pending)
	AddLate(p Pending)
	// Late are the transforms queued so far, in stream order.
	Late() []Pending
	// DropRemoved drops the documents an overlay removed.
	DropRemoved(docs []value.Value) []value.Value
}

// SelfRenderer is a compiled node that renders itself: what a package
// beside the walker compiles (an overlay document, an edit list of an
// overlay's patch).
type SelfRenderer interface {
	// Value renders in value position: a value, or nothing (false).
	Value(r Renderer, sc *scope.Scope, fr *diag.Frame) (value.Value, bool, error)
	// Multi renders in item or stream position, appending to dst.
	Multi(r Renderer, sc *scope.Scope, fr *diag.Frame, pos Position, dst []value.Value) ([]value.Value, error)
}

// Pending is an overlay (or a transform) reached in the stream: once
// every document is rendered, Apply edits them (reference §8, §10).
type Pending interface {
	Apply(r Renderer, docs []value.Value) ([]value.Value, error)
}

// AppendIf adds what a value-position render gave to dst: the value, or
// nothing.
func AppendIf(dst []value.Value, v value.Value, ok bool, err error) ([]value.Value, error) {
	if err == nil && ok {
		dst = append(dst, v)
	}
	return dst, err
}

// Position is where a node stands (reference §1).
type Position uint8

const (
	PosValue  Position = iota // the value of a key, $value, or a $with/$let entry
	PosItem                   // an element of a sequence
	PosStream                 // the root of a document
)

// ErrUnknownShape says that how many items or documents a node gives
// depends on an unknown value. The enclosing sequence (or the stream)
// becomes unknown as a whole.
var ErrUnknownShape = errors.New("shape depends on an unknown value")

// UnknownShapeError is ErrUnknownShape that names the unknown value that
// decides the shape, by its path in the template ("$values.image.tag"),
// never by its value: a $chart whose $values hold one (reference §11).
type UnknownShapeError struct {
	Path string
}

func (e *UnknownShapeError) Error() string { return ErrUnknownShape.Error() + " at " + e.Path }

// Is makes errors.Is(err, ErrUnknownShape) hold.
func (e *UnknownShapeError) Is(target error) bool { return target == ErrUnknownShape }

// UnknownItemsError is ErrUnknownShape from a producer in item position
// that knows the type of every item it gives although not how many: a
// $for over an unknown collection whose body, rendered with its loop
// variables unknown, gives items of one type (reference §4 $for). The
// enclosing sequence is then an unknown list of that type, when its other
// items have it too, and an unknown of dynamic type otherwise.
type UnknownItemsError struct {
	Elem value.Type
}

func (e *UnknownItemsError) Error() string { return ErrUnknownShape.Error() }

// Is makes errors.Is(err, ErrUnknownShape) hold.
func (e *UnknownItemsError) Is(target error) bool { return target == ErrUnknownShape }
