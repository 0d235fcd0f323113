// Package engine renders CEL-YAML templates: YAML whose $-keys are evaluated
// with CEL. It imports nothing from Terraform.
//
// The API is small: build an Engine once (it holds the compiled-program
// cache and is safe for concurrent use), then Render a source with
// variables and get documents back, or an *Error that points at a
// file:line:column. RenderDocuments also says where each document came
// from; EncodeYAMLStream and AppendJSON write the result. Values are
// package value's.
//
// A render is a pipeline (the language reference in
// docs/guides/language-reference.md states its rules; ARCHITECTURE.md at
// the repository root draws it):
//
//  1. parse (package tree): the text becomes YAML nodes, with positioned
//     errors for what YAML refuses; a text is parsed and compiled once and
//     shared by every render.
//  2. compile (package tree): nodes become a tree of plain constants,
//     sequences and mappings whose directives are checked up front,
//     through the directive table (tree.Table) that this package
//     assembles from the directives' entries, in one listed place.
//  3. walk (package walk, with the directives of package directive): the
//     tree is walked with a scope of variables; expressions run in the CEL
//     environment.
//  4. overlays and transforms (package overlay): once every document is
//     rendered, the overlays edit or remove them in stream order, then
//     the transforms ($transform, package transform) change every
//     document, then the Namespace option.
//  5. emit (package emit): documents become YAML or JSON text.
//
// Package check compiles a template without rendering it, for `celyaml
// check`. The packages below: value (the value model), yamlnode (plain
// YAML to values), lex (CEL's lexical rules), hint (the words of every
// hint and "did you mean"), merge (the merge rule), emit (the emitters),
// schema ($schema's JSON Schema checks), transform ($transform's
// Kubernetes transforms), chart ($chart's Helm charts), manifest (the
// manifest-ID rule), celenv (the CEL environment) and scope (the variable
// stack a render binds names in). ARCHITECTURE.md's layer table gives
// which may import which.
package engine
