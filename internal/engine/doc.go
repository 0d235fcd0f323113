// Package engine renders CEL-YAML templates: YAML whose $-keys are evaluated
// with CEL. It imports nothing from Terraform.
//
// The API is small: build an Engine once (it holds the compiled-program
// cache and is safe for concurrent use), then Render a source with
// variables and get documents back, or an *Error that points at a
// file:line:column. RenderDocuments also says where each document came
// from; EncodeYAMLStream and AppendJSON write the result.
//
// A render is a pipeline (the language reference in
// docs/guides/language-reference.md states its rules):
//
//  1. parse (parse.go): the text becomes YAML nodes, with positioned
//     errors for what YAML refuses; a text is parsed and compiled once and
//     shared by every render.
//  2. compile (compile.go, mapping.go, directives.go): nodes become a tree
//     of plain constants, sequences and mappings whose directives are
//     checked up front. directives.go is the directive table; each
//     directive has one file for its compile and render functions
//     (let.go, assert.go, if.go, for.go, eval.go, keyvalue.go,
//     include.go, schemadir.go).
//  3. render (render.go, scope.go, scanner.go): the tree is walked with a
//     scope of variables; expressions run in the CEL environment.
//     Then the overlays (overlay.go, listedit.go) edit or remove
//     documents, and the transforms (transform.go, package transform)
//     change every document.
//  4. emit (package emit): documents become YAML or JSON text.
//
// The packages below it, each a leaf of this one: value (the value model),
// yamlnode (plain YAML to values), lex (CEL's lexical rules), hint (the
// words of every hint and "did you mean"), merge (the merge rule), emit
// (the emitters), schema ($schema's JSON Schema checks), transform
// ($transform's Kubernetes transforms) and celenv (the CEL environment).
package engine
