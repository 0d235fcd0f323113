// Package celval is where engine values and CEL values meet, below the CEL
// environment (package celenv, which imports it) and knowing nothing of
// programs: ToCEL and FromCEL convert without copying the engine's maps
// and lists, map literals are walked in sorted key order, CEL's error
// messages lose anything a variable's value may have put in them, and the
// helper library (json and yaml encoding and decoding, deepMerge, sha256,
// truthy; reference §5) works on the values alone.
package celval
