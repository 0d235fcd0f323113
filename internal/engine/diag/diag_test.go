package diag

import (
	"strings"
	"testing"
)

func TestError_isPositionPathAndMessage(t *testing.T) {
	e := &Error{Pos: Pos{File: "a.yaml", Line: 3, Column: 7}, Path: "spec.$if", Msg: "no such key"}
	if got, want := e.Error(), "a.yaml:3:7: spec.$if: no such key"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestError_atADocumentRootHasNoPath(t *testing.T) {
	e := &Error{Pos: Pos{File: "<inline>", Line: 1, Column: 1}, Msg: "bad"}
	if got, want := e.Error(), "<inline>:1:1: bad"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestError_pointsACaretAtTheOffsetInTheExpression(t *testing.T) {
	e := &Error{Pos: Pos{File: "a.yaml", Line: 2, Column: 9}, Path: "x", Msg: "undeclared reference to 'y'", Expr: "1 + y", Offset: 4}
	want := "a.yaml:2:9: x: undeclared reference to 'y'\n  | 1 + y\n  | ....^"
	if got := e.Error(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestError_showsOnlyTheLineOfAMultiLineExpression(t *testing.T) {
	at := &Error{Pos: Pos{File: "a.yaml", Line: 1, Column: 1}, Msg: "m", Expr: "a &&\n  b", Offset: 7}
	if got, want := at.Error(), "a.yaml:1:1: m\n  |   b\n  | ..^"; got != want {
		t.Errorf("with an offset: got %q, want %q", got, want)
	}
	none := &Error{Pos: Pos{File: "a.yaml", Line: 1, Column: 1}, Msg: "m", Expr: "a &&\n  b", Offset: -1}
	if got, want := none.Error(), "a.yaml:1:1: m\n  | a && ..."; got != want {
		t.Errorf("without: got %q, want %q", got, want)
	}
}

func TestError_windowsALongExpressionAroundTheCaret(t *testing.T) {
	expr := strings.Repeat("a", 100) + "X" + strings.Repeat("b", 100)
	e := &Error{Pos: Pos{File: "a.yaml", Line: 1, Column: 1}, Msg: "m", Expr: expr, Offset: 100}
	line := "..." + strings.Repeat("a", 60) + "X" + strings.Repeat("b", 59) + "..."
	want := "a.yaml:1:1: m\n  | " + line + "\n  | " + strings.Repeat(".", 63) + "^"
	if got := e.Error(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestError_namesTheEditedDocumentThenTheIncludeChain(t *testing.T) {
	e := &Error{
		Pos: Pos{File: "inner.yaml", Line: 4, Column: 2}, Msg: "m", Editing: "document 3 (apps/Deployment/_/web)",
		Chain: []Pos{{File: "mid.yaml", Line: 2, Column: 3}, {File: "main.yaml", Line: 9, Column: 1}},
	}
	want := "inner.yaml:4:2: m\n  while editing document 3 (apps/Deployment/_/web)\n  included from mid.yaml:2:3\n  included from main.yaml:9:1"
	if got := e.Error(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
