// Package lex holds the lexical rules of CEL that the engine needs outside
// the CEL parser: where a string literal ends (all quote forms, raw and
// triple-quoted), which bytes make an identifier, and which names can be
// variables. The ${{ }} scanner uses them to skip over string literals, and
// the hints use them to look only at code.
package lex
