// Package celval is where engine values and CEL values meet, below the CEL
// environment (package celenv, which imports it) and knowing nothing of
// programs: ToCEL and FromCEL (convert.go) convert without copying the
// engine's maps and lists (wrap.go), map literals are walked in sorted key
// order (sortedmap.go), CEL's error messages lose anything a variable's
// value may have put in them (sanitize.go), and the helper library
// (library.go: json and yaml encoding and decoding, deepMerge, sha256 in
// helpers.go, truthy in truthy.go) works on the values alone.
package celval
