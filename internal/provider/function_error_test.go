package provider

import (
	"errors"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// Terraform appends a period to a function's error text; the text ends on
// a line of its own so that the period never lands in the caret picture.
func TestFuncErrorText_closesTheCaretPicture(t *testing.T) {
	at := engine.Pos{File: "<inline>", Line: 1, Column: 1}
	cases := []struct {
		err  error
		want string
	}{
		{&engine.Error{Pos: at, Msg: "no such key 'b'", Expr: "a.b", Offset: 1},
			"<inline>:1:1: no such key 'b'\n  | a.b\n  | .^\n  ^ marks where the expression fails"},
		{&engine.Error{Pos: at, Msg: "the result holds a NaN", Expr: "${{ x }}", Offset: -1},
			"<inline>:1:1: the result holds a NaN\n  | ${{ x }}\n  the expression above fails"},
		{&engine.Error{Pos: engine.Pos{File: "<inline>", Line: 2, Column: 3}, Path: "x.$eval", Msg: "no such key 'b'", Expr: "a.b", Offset: 1,
			Chain: []engine.Pos{{File: "main.yaml", Line: 4, Column: 1}}},
			"<inline>:2:3: x.$eval: no such key 'b'\n  | a.b\n  | .^\n  included from main.yaml:4:1"},
		{&engine.Error{Pos: at, Path: "$overlay", Msg: "no such key 'kind'", Expr: "doc.kind", Offset: 3, Editing: "document 2 (apps/Deployment/_/web)"},
			"<inline>:1:1: $overlay: no such key 'kind'\n  | doc.kind\n  | ...^\n  while editing document 2 (apps/Deployment/_/web)"},
		{&engine.Error{Pos: at, Msg: "caret at the start", Expr: "x", Offset: 0},
			"<inline>:1:1: caret at the start\n  | x\n  | ^\n  ^ marks where the expression fails"},
		{&engine.Error{Pos: at, Msg: "no expression", Offset: -1}, "<inline>:1:1: no expression"},
		{errors.New("documents 0 and 1 have the same manifest ID"), "documents 0 and 1 have the same manifest ID"},
	}
	for _, c := range cases {
		if got := funcErrorText(c.err); got != c.want {
			t.Errorf("funcErrorText(%q)\n got %q\nwant %q", c.err, got, c.want)
		}
	}
}
