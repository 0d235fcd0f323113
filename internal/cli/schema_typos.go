package cli

import (
	"slices"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// The editor schema's words on $-keys that are no directive. JSON Schema
// cannot compute a "did you mean", and yaml-language-server shows a
// schema's errorMessage as it is (it fills in no key), so the schema
// lists the likely slips of every directive, each with its own message:
// for each directive the keys one slip away (a letter left out, doubled,
// or swapped with the next, and the name capitalised or in capitals),
// kept where the engine's unknown-directive error suggests that same
// directive (engine.SuggestDirective, through the hint package). Any
// other $-key gets one general message. The JSON Schema keywords that
// templates write as data ($ref, $id, …) get the engine's advice: $$.

// typo is a $-key the engine would answer with "did you mean".
type typo struct{ key, meant string }

// directiveTypos lists the slips of every directive, sorted by key.
func directiveTypos() []typo {
	seen := map[string]bool{}
	var out []typo
	for _, d := range engine.DirectiveNames() {
		for _, k := range slips(d) {
			if seen[k] || engine.SuggestDirective(k) != d {
				continue
			}
			seen[k] = true
			out = append(out, typo{key: k, meant: d})
		}
	}
	slices.SortFunc(out, func(a, b typo) int { return strings.Compare(a.key, b.key) })
	return out
}

// slips are the keys one slip away from directive d ($ and a name).
func slips(d string) []string {
	name := d[1:]
	var out []string
	for i := range len(name) {
		out = append(out, "$"+name[:i]+name[i+1:])   // left out
		out = append(out, "$"+name[:i+1]+name[i:])   // doubled
		if i+1 < len(name) && name[i] != name[i+1] { // swapped
			out = append(out, "$"+name[:i]+string(name[i+1])+string(name[i])+name[i+2:])
		}
	}
	out = append(out, "$"+strings.ToUpper(name[:1])+name[1:], "$"+strings.ToUpper(name))
	return out
}

// unknownKeyMessage is the general message for a $-key that is no
// directive.
const unknownKeyMessage = "unknown directive: keys that start with $ are directives; to output a key starting with $ as data, write $$ (e.g. $$ref)"

// keyChecks is the propertyNames schema of a mapping: a known slip gets
// its own message, a JSON Schema keyword the advice to write $$, and any
// other $-key that is no directive the general message.
func keyChecks(names []string) map[string]any {
	var checks []any
	accepted := slices.Clone(names)
	for _, t := range directiveTypos() {
		checks = append(checks, keyIs(t.key, t.meant, "unknown directive `"+t.key+"`; did you mean `"+t.meant+"`?"))
		accepted = append(accepted, t.key)
	}
	for _, k := range engine.SchemaKeywordKeys() {
		checks = append(checks, keyIs(k, "$"+k, "`"+k+"` is a JSON Schema keyword, not a directive: write `$"+k+"` to output it as data"))
		accepted = append(accepted, k)
	}
	checks = append(checks, map[string]any{
		// Directive-like: "$" followed by a letter or "_" (the engine's
		// isDirectiveLike); "$$" escapes.
		"if":   map[string]any{"pattern": "^\\$[A-Za-z_]"},
		"then": map[string]any{"enum": accepted, "errorMessage": unknownKeyMessage},
	})
	return map[string]any{
		"description": "A key starting with $ must be a directive; write $$ to output a key starting with $ as data.",
		"allOf":       checks,
	}
}

// keyIs says msg when the key is key: the key should have been instead.
func keyIs(key, instead, msg string) map[string]any {
	return map[string]any{
		"if":   map[string]any{"const": key},
		"then": map[string]any{"const": instead, "errorMessage": msg},
	}
}
