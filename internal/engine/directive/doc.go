// Package directive holds the directives of the language that compile and
// render inside a mapping (reference §3 and §4): the preludes, such as
// $let, which bind names or check before the rest of the mapping, and the
// producers, such as $if, which give its content; the directive table
// (internal/engine/assemble.go) lists them all, in evaluation order.
//
// Each directive gives its entries of the directive table (itself and the
// partners that belong to it) from one exported function, such as If;
// the engine's facade lists those functions, in evaluation order, where it
// builds the table (tree.NewTable). Neither the compiler (package tree)
// nor the walker names a directive of this package: they call the compile
// functions the table holds, and render what those give through the
// tree.Producer and tree.Prelude interfaces, which call back into the
// walker through tree.ContentRenderer and tree.PreludeRenderer.
package directive
