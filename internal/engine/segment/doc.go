// Package segment is the ${{ }} scanner (reference §3): it splits a string
// into literal text and CEL expressions, understanding CEL's string
// literals and braces lexically, with "$${{" for a literal "${{". $eval,
// $msg and `celyaml check` use it.
package segment
