// Package walk is the tree walker of the engine: it parses a template
// (parse.go), compiles it into a tree of constants, sequences and mappings
// (compile.go, mapping.go), and walks that tree with a scope of variables
// (render.go, node.go, merge.go, expr.go, scope.go), reading the files that
// $include names through the engine's cache (files.go) and Loader. Errors
// point at a file:line:column (errors.go); duplicate keys are named only
// when the template writes them (dupkeys.go). Package check, beside it,
// inspects a template without rendering it.
//
// The walker owns the directive table (directives.go), not the
// directives: package directive, and the overlays and list edits, register
// their entries with Register at a rank, and the walker compiles a
// mapping's directives in rank order through the table's functions. What a
// directive compiles to renders through two small interfaces: Producer
// (content: $if, $for, $eval, $key, $include) and Prelude ($schema, $let,
// $assert, run before the rest of the mapping). A document directive
// ($overlay, $transform) compiles its whole document into a SelfRenderer,
// which queues a Pending in the stream: the overlays apply in stream order
// once every document is rendered, then the transforms (AddLate), then
// the Namespace option (RegisterNamespace).
package walk
