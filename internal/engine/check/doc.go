// Package check finds the problems of a template without rendering it,
// for `celyaml check`: it compiles each document with the walker's
// compiler, sets aside the mapping that holds a directive error and
// compiles on, follows literal $include paths, and checks the syntax and
// free names of every expression against what is in scope. Within a
// mapping, the entry that holds a problem is removed with its partners, so
// every problem of a mapping is reported (mapping.go). Render follows a
// clean check with a render, when the values allow one.
package check
