// Package value holds the engine's values: the plain Go kinds a rendered
// document is made of (nil, bool, int64, float64, string, []Value), the
// ordered mapping Map, and the markers for values not known yet (Unknown,
// UnknownStream).
//
// It is a leaf: it imports nothing of the engine, so that the emitters, the
// schema validator, the CEL environment, the engine's facade and its
// callers (the provider, the command line) all share one value model and
// name it in one way: value.Value, value.Map.
package value
