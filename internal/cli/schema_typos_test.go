package cli

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// The schema describes every directive of the engine's table, in its
// order, each with its description: a directive added there without one
// fails here.
func TestSchemaDescribesEveryDirectiveOfTheEngine(t *testing.T) {
	var names []string
	for _, d := range engine.Directives() {
		names = append(names, d.Name)
		if d.Summary == "" || d.Anchor == "" {
			t.Errorf("%s: no summary or no anchor in its description", d.Name)
		}
	}
	if want := engine.DirectiveNames(); !slices.Equal(names, want) {
		t.Errorf("described: %v\nthe engine's table: %v", names, want)
	}
	props := templateSchema()["$defs"].(map[string]any)["mapping"].(map[string]any)["properties"].(map[string]any)
	if len(props) != len(names) {
		t.Errorf("the schema has %d directives, the table %d", len(props), len(names))
	}
}

// Every slip the schema names is one the engine refuses with "did you
// mean" the same directive, so editor and render say the same thing.
func TestSchemaTyposAreTheEnginesSuggestions(t *testing.T) {
	typos := directiveTypos()
	if len(typos) < 200 {
		t.Fatalf("only %d typos", len(typos))
	}
	e := engine.New(engine.Options{})
	for _, ty := range typos {
		_, err := e.Render(context.Background(), engine.Source{Text: []byte("a:\n  " + ty.key + ": x\n")}, nil)
		if err == nil || !strings.Contains(err.Error(), "unknown directive "+ty.key+": did you mean "+ty.meant+"?") {
			t.Errorf("%s: the schema says did you mean %s; the engine says %v", ty.key, ty.meant, err)
		}
	}
	for _, want := range []typo{{"$fro", "$for"}, {"$iff", "$if"}, {"$Include", "$include"}, {"$tehn", "$then"}, {"$EVAL", "$eval"}} {
		if !slices.Contains(typos, want) {
			t.Errorf("the schema does not name %s as a slip of %s", want.key, want.meant)
		}
	}
}

// The schema flags what yaml-language-server is tested to show (see
// editor_lsp_test.go) under a validator that ignores errorMessage, too.
func TestSchemaFlagsTyposSchemaKeywordsAndNonStringInclude(t *testing.T) {
	s := compiledSchema(t)
	for _, doc := range []string{"a:\n  $fro: x\n", "a:\n  $include: 42\n", "$ref: '#/x'\n", "a:\n  $foo: 1\n", "a:\n  $include: ''\n", "$schema:\n  v: {$include: 1}\n", "$schema:\n  v: {$include: f.json, type: object}\n"} {
		if errs := invalidDocs(t, s, []byte(doc)); len(errs) == 0 {
			t.Errorf("the schema accepts %q", doc)
		}
	}
	for _, doc := range []string{"a:\n  $include: b.yaml\n", "a:\n  $include: {$eval: \"${{ f }}\"}\n", "$$ref: x\n", "a:\n  $for: x in xs\n  $do: 1\n", "$schema:\n  v: {$include: chart/values.schema.json}\n  w: string\n"} {
		if errs := invalidDocs(t, s, []byte(doc)); len(errs) > 0 {
			t.Errorf("the schema refuses %q: %v", doc, errs)
		}
	}
}
