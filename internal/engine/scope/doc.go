// Package scope is the variable stack a render binds names in (reference
// §4 $let, $for, $include's $with, $schema's defaults): a chain of levels,
// each shadowing the names further up, that CEL programs evaluate against
// directly (it is cel-go's interpreter.Activation). A binding made from an
// engine value keeps that value and makes its CEL form only when a
// program asks for it, so reading a variable back costs no conversion.
//
// It is apart from the compiled model (package tree), which names it only
// in the signatures of what a compiled node renders with, and from the
// walker (package walk), which fills it.
package scope
