// Package overlay holds the overlays and the list edits (reference §8):
// $overlay/$expects, which make a document edit the other documents once
// they are rendered, and $match, $remove and $append, the items of a
// sequence in an overlay's patch that edit the document's sequence; an
// overlay with $remove: true, which removes the documents it matches; and
// $transform (reference §10), whose documents change every document once
// the overlays have applied, through the leaf package transform, followed
// by the engine's Namespace option.
//
// Like package directive, it gives its table entries from exported
// functions (Overlay, ListEdits, Transform), which the engine's facade
// lists, and two stages the facade passes by name: CompileEditList, how a
// sequence of an overlay's patch compiles (tree.NewTable), and
// ApplyNamespace, the Namespace option after the transforms (walk.New).
// The walker reaches the rest only through interfaces: an overlay document
// and an edit list are tree.SelfRenderer nodes, and an overlay reached in
// the stream is a tree.Pending applied after the last document (a
// transform one queued with AddLate, after every overlay).
package overlay
