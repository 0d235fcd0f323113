package provider

import (
	"errors"
	"testing"
)

// Terraform appends a period to a function's error text; the text ends on
// a line of its own so that the period never lands in the caret picture.
func TestFuncErrorText_closesTheCaretPicture(t *testing.T) {
	cases := []struct{ in, want string }{
		{"<inline>:1:1: no such key 'b'\n  | a.b\n  | .^",
			"<inline>:1:1: no such key 'b'\n  | a.b\n  | .^\n  ^ marks where the expression fails"},
		{"<inline>:1:1: the result holds a NaN\n  | ${{ x }}",
			"<inline>:1:1: the result holds a NaN\n  | ${{ x }}\n  the expression above fails"},
		{"<inline>:2:3: x.$eval: no such key 'b'\n  | a.b\n  | .^\n  included from main.yaml:4:1",
			"<inline>:2:3: x.$eval: no such key 'b'\n  | a.b\n  | .^\n  included from main.yaml:4:1"},
		{"documents 0 and 1 have the same manifest ID", "documents 0 and 1 have the same manifest ID"},
		{"<inline>:1:1: caret at the start\n  | x\n  | ^",
			"<inline>:1:1: caret at the start\n  | x\n  | ^\n  ^ marks where the expression fails"},
	}
	for _, c := range cases {
		if got := funcErrorText(errors.New(c.in)); got != c.want {
			t.Errorf("funcErrorText(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
