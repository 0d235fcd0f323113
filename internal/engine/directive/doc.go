// Package directive holds the directives of the language that compile and
// render inside a mapping: $schema, $let, $assert/$msg, $if/$then/$else,
// $for/$do, $eval, $key/$value and $include/$with, one file each.
//
// Each file registers its directive (and the partners that belong to it)
// with tree.Register at an explicit rank: the rank is the order of
// evaluation, of the missing-partner checks and of "did you mean". Neither
// the compiler (package tree) nor the walker names a directive of this
// package; they call the compile functions the table holds, and render
// what they give through the tree.Producer and tree.Prelude interfaces,
// which call back into the walker through tree.Renderer. The package has no exported
// API: importing it (the engine facade does) registers the directives.
package directive
