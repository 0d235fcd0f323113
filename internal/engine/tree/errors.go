package tree

import (
	"strconv"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// In is the compile error as a *diag.Error of the file in fr.
func (c *CompileError) In(fr *diag.Frame) *diag.Error {
	p := diag.Pos{File: fr.File, Line: c.line, Column: c.column}
	if c.Node != nil {
		p.Line, p.Column = c.Node.Line, c.Node.Column
	}
	if p.Line == 0 {
		p.Line, p.Column = 1, 1
	}
	return &diag.Error{Pos: p, Path: c.Path, Msg: c.Msg, Expr: c.Expr, Offset: c.Offset, Chain: fr.Chain}
}

// ValueKind names the kind of an engine value, for messages. It never
// shows the value itself.
func ValueKind(v value.Value) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a bool"
	case int64:
		return "an int"
	case float64:
		return "a double"
	case string:
		return "a string"
	case *value.Map:
		return "a mapping"
	case []value.Value:
		return "a list"
	case value.Unknown:
		return "an unknown value"
	case merge.Edit: // an edit list of an overlay's patch
		return "list edits"
	}
	return "a value"
}

// Itoa is strconv.Itoa, for messages.
func Itoa(i int) string { return strconv.Itoa(i) }

// Quote is strconv.Quote, for messages.
func Quote(s string) string { return strconv.Quote(s) }
