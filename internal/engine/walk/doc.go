// Package walk is the tree walker of the engine: it renders the tree that
// package tree compiles, with a scope of variables: the documents of a
// stream, a node in value, item or stream position (reference §1), a
// mapping's preludes, producers and keys (reference §2), CEL evaluation,
// the render's limits (reference §7), and the files $include names, read
// through the engine's cache and Loader. Its Engine holds the options, the
// CEL program cache and the compiled files. Package check, beside it,
// inspects a template without rendering it.
//
// The walker names no directive: the directives compile, through the
// directive table it is given (New), to nodes that render themselves
// through tree.Producer, tree.Prelude, tree.SelfRenderer and tree.Pending,
// and call back into the walker through tree.Renderer, which *Renderer
// implements. The overlays apply in stream order once every document is
// rendered, then the transforms (AddLate), then the Namespace option (the
// NamespaceFunc New is given).
package walk
