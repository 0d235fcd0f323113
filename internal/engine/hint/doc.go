// Package hint holds what an error adds to say how to write the thing that
// failed, and the name matching behind every "did you mean".
//
// Users come from HCL, Helm, ytt, Python and JavaScript, and CEL differs
// from each: no truthiness, no implicit conversion, no pipes, different
// names. A hint is added only when it fits what the template wrote, and it
// is made of the template's own text and type names, never of a
// variable's value.
//
// The functions here take plain text and type names. The places that
// gather those facts (the CEL program's syntax tree, the scope of a
// render) call them: the CEL environment for failed lookups and calls, the
// compiler for misspelt directives, the schema package for misspelt
// keywords, the emitters for unknown output formats.
package hint
