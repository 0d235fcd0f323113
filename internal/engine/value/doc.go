// Package value holds the engine's values: the plain Go kinds a rendered
// document is made of (nil, bool, int64, float64, string, []Value), the
// ordered mapping Map, and the markers for values not known yet (Unknown,
// UnknownStream).
//
// It is a leaf: it imports nothing of the engine, so that the emitters, the
// schema validator and the CEL environment can all share one value model.
// The engine re-exports these names as aliases, so callers write
// engine.Value and engine.Map.
package value
