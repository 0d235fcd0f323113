package engine

import (
	"slices"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// What the editor schema (`celyaml schema`) needs from the directive
// table, so that it says what the compiler says.

// DirectiveNames lists the directives in the table's order.
func DirectiveNames() []string { return table.Names() }

// SuggestDirective names the directive that the unknown $-key key
// probably meant, as the unknown-directive error does, or "" when none is
// close, key is a directive, or key is a JSON Schema keyword written as
// data ($ref, $id, …: see SchemaKeywordKeys).
func SuggestDirective(key string) string {
	if _, ok := table.Lookup(key); ok || !tree.IsDirectiveLike(key) || slices.Contains(tree.SchemaKeywordKeys(), key) {
		return ""
	}
	return table.Suggest(key)
}

// SchemaKeywordKeys are the $-keywords of JSON Schema and OpenAPI, which
// the unknown-directive error tells to write with $$ as data.
func SchemaKeywordKeys() []string { return tree.SchemaKeywordKeys() }
