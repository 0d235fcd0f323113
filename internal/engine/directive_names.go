package engine

import (
	"slices"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/schema"
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

// SchemaIncludeKey is the key of a variable's schema kept in a file,
// `{$include: FILE}` in $schema (reference §4 $schema).
const SchemaIncludeKey = schema.IncludeKey

// SchemaKeywordKeys are the $-keywords of JSON Schema and OpenAPI, which
// the unknown-directive error tells to write with $$ as data.
func SchemaKeywordKeys() []string { return tree.SchemaKeywordKeys() }

// DirectiveInfo is what the editor schema says of a directive, read from
// its description in the directive table.
type DirectiveInfo struct {
	Name string
	// Anchor is its anchor in the language reference, Summary one
	// sentence on it.
	Anchor, Summary string
	// Needs is the directive it cannot stand without, "" if none.
	Needs string
	Value ValueShape
	// WholeExpr says a string value is one CEL expression as a whole,
	// where an editor offers the names in scope.
	WholeExpr bool
	// Beside are the directives, other than preludes, that this document
	// directive's root takes beside it, with their partners' rules its own.
	Beside []string
}

// ValueShape is the shape of a directive's value.
type ValueShape uint8

const (
	// ValueTemplate: any template.
	ValueTemplate ValueShape = iota
	// ValueCondition: a bare CEL expression, or a YAML bool.
	ValueCondition
	// ValueExprString: a string holding CEL (${{ }} segments, or
	// "x in EXPR").
	ValueExprString
	// ValueExprList: a bare CEL expression, or a list of them.
	ValueExprList
	// ValueMapping: a mapping from names to templates.
	ValueMapping
	// ValueSchemas: a mapping from variable names to their schemas.
	ValueSchemas
	// ValueInclude: a file path, or a mapping that renders to one.
	ValueInclude
	// ValueCount: an int, or "N+".
	ValueCount
	// ValueLoad: a path, or a mapping naming what to load.
	ValueLoad
	// ValueFields: a mapping of fixed fields.
	ValueFields
)

// Directives describes the directives in the table's order.
func Directives() []DirectiveInfo {
	var out []DirectiveInfo
	for _, d := range table.Directives() {
		out = append(out, DirectiveInfo{Name: d.Name, Anchor: d.Anchor(), Summary: d.Summary, Needs: d.Needs, Value: valueShape(&d), WholeExpr: d.WholeExpr(), Beside: d.Beside})
	}
	return out
}

// valueShape reads the shape of d's value from its description.
func valueShape(d *tree.Directive) ValueShape {
	switch {
	case d.Declares:
		return ValueSchemas
	case d.Includes:
		return ValueInclude
	case d.Bound == tree.BindIncluded:
		return ValueMapping
	case d.Loads:
		return ValueLoad
	case len(d.Fields) > 0:
		return ValueFields
	}
	switch d.Exprs {
	case tree.ExprBare:
		return ValueCondition
	case tree.ExprLoop, tree.ExprSegments:
		return ValueExprString
	case tree.ExprBareList:
		return ValueExprList
	case tree.ExprEntries:
		return ValueMapping
	case tree.ExprCount:
		return ValueCount
	}
	return ValueTemplate
}
