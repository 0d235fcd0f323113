package provider

import (
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// Terraform prints a function's error as `Call to function "…" failed:
// TEXT.`, with a period of its own after the text. An engine error that
// ends in its caret picture would get that period inside the picture
// (`| ....^.`), where it reads as part of the expression. So such a text
// gets one more line, which the period ends as a sentence.

// pictureEnd is the line that closes an error whose text ends in the
// expression and its caret.
const pictureEnd = "\n  ^ marks where the expression fails"

// pictureEndNoCaret closes an error that shows the expression without a
// caret.
const pictureEndNoCaret = "\n  the expression above fails"

// funcErrorText is err's text, closed so that nothing Terraform appends
// lands in the caret picture: an engine error that shows its expression,
// and no line after it (the document an overlay was editing, the include
// chain), ends in that picture.
func funcErrorText(err error) string {
	text := err.Error()
	var e *engine.Error
	if !errors.As(err, &e) || e.Expr == "" || len(e.Chain) > 0 || e.Editing != "" {
		return text
	}
	if e.Offset >= 0 && e.Offset <= len(e.Expr) {
		return text + pictureEnd
	}
	return text + pictureEndNoCaret
}

// funcError is the function error for err, a render or evaluation error.
func funcError(err error) *function.FuncError {
	return function.NewFuncError(funcErrorText(err))
}
