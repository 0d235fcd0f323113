// Package walk is the tree walker of the engine: it renders the tree that
// package tree compiles, with a scope of variables: the documents and the
// pending overlays and transforms (render.go), a node in value, item or
// stream position (node.go), a mapping's preludes, producers and keys
// (merge.go), CEL evaluation (expr.go) and the render's limits
// (limits.go), reading the files that $include names through the
// engine's cache and Loader (files.go). The Engine (engine.go) holds the
// options, the CEL program cache and the compiled files. Package check,
// beside it, inspects a template without rendering it.
//
// The walker names no directive: the directives compile, through the
// table in package tree, to nodes that render themselves through
// tree.Producer, tree.Prelude, tree.SelfRenderer and tree.Pending, and
// call back into the walker through tree.Renderer, which *Renderer
// implements. The overlays apply in stream order once every document is
// rendered, then the transforms (AddLate), then the Namespace option
// (the NamespaceFunc New is given).
package walk
