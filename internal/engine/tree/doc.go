// Package tree is the compiled form of a template and its compiler: it
// parses a template (YAML nodes, positioned YAML errors), compiles it
// into a tree of constants, sequences and mappings, and holds the shape
// of the directive table and the compiler's errors (CompileError, given
// as a positioned diag.Error). The engine options live in package
// options, the positioned errors in package diag, the cache of compiled
// files in package walk, which, above tree, renders the tree, binding
// names in package scope's variable stack.
//
// The tree owns the shape of the directive table (Table, Directive), not
// the directives: the engine's facade builds the table with NewTable from
// the entries packages directive and overlay give, and the compiler
// compiles a mapping's directives in table order through the table's
// functions. What a directive compiles to renders through small
// interfaces: Producer (a directive that gives content, such as $if),
// Prelude (one run before the rest of the mapping, such as $let),
// SelfRenderer (a document directive's document, an edit list) and
// Pending (an overlay or a transform, applied after the last document).
// Each is given what its implementations call of the walker's operations,
// which package walk's renderer implements, so the tree never imports the
// walker: a Producer a ContentRenderer (no overlay queue), a Prelude a
// PreludeRenderer (nothing counted, nothing queued), a SelfRenderer and a
// Pending the whole Renderer.
package tree
