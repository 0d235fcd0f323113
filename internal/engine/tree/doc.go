// Package tree is the compiled form of a template and its compiler: it
// parses a template (parse.go: YAML nodes, positioned YAML errors, each
// text compiled once and cached), compiles it into a tree of constants,
// sequences and mappings (compile.go, mapping.go, keys.go), and holds the
// directive table (directives.go), the scope a render binds names in
// (scope.go), positions and errors (errors.go, dupkeys.go) and the engine
// options (options.go). Package walk, above it, renders the tree.
//
// The tree owns the directive table, not the directives: package
// directive, and the overlays and list edits, register their entries with
// Register at a rank, and the compiler compiles a mapping's directives in
// rank order through the table's functions. What a directive compiles to
// renders through small interfaces (renderer.go, mapping.go): Producer
// (content: $if, $for, $eval, $key, $include), Prelude ($schema, $let,
// $assert, run before the rest of the mapping), SelfRenderer (a document
// directive's document, an edit list) and Pending (an overlay or a
// transform, applied after the last document). Each is given a Renderer,
// an interface that package walk's renderer implements, so the tree
// never imports the walker.
package tree
