package engine

import "slices"

// What the editor schema (`celyaml schema`) needs from the directive
// table, so that it says what the compiler says.

// DirectiveNames lists the directives in the table's order.
func DirectiveNames() []string { return slices.Clone(directiveNames) }

// SuggestDirective names the directive that the unknown $-key key
// probably meant, as the unknown-directive error does, or "" when none is
// close, key is a directive, or key is a JSON Schema keyword written as
// data ($ref, $id, …: see SchemaKeywordKeys).
func SuggestDirective(key string) string {
	if _, ok := lookupDirective(key); ok || !isDirectiveLike(key) || slices.Contains(schemaKeywords, key) {
		return ""
	}
	return suggest(key)
}

// SchemaKeywordKeys are the $-keywords of JSON Schema and OpenAPI, which
// the unknown-directive error tells to write with $$ as data.
func SchemaKeywordKeys() []string { return slices.Clone(schemaKeywords) }
