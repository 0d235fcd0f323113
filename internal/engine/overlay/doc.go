// Package overlay holds the overlays and the list edits (reference §8):
// $overlay/$expects, which make a document edit the other documents once
// they are rendered, and $match, $remove and $append, the items of a
// sequence in an overlay's patch that edit the document's sequence; an
// overlay with $remove: true, which removes the documents it matches; and
// $transform (reference §10), whose documents change every document once
// the overlays have applied, through the leaf package transform, followed
// by the engine's Namespace option.
//
// Like package directive, it registers its directives with tree.Register
// at their ranks, and the walker reaches it only through interfaces: an
// overlay document and an edit list are tree.SelfRenderer nodes, an
// overlay reached in the stream is a tree.Pending applied after the last
// document (a transform one queued with AddLate, after every overlay), the
// Namespace option applies through walk.RegisterNamespace, and a sequence of a patch compiles through the hook set with
// tree.RegisterEditList.
package overlay
