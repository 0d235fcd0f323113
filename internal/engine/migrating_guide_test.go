package engine_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// migratingGuide is the user guide for people coming from Helm,
// templatefile(), ytt and kustomize.
const migratingGuide = "../../templates/guides/migrating.md.tmpl"

// guideRender is one worked example of a guide: a template block whose
// first line is `# variables: {JSON}`, followed by a block whose first
// line is `# output`.
type guideRender struct {
	line             int
	vars             []byte
	template, output string
}

// guideRenders reads the worked examples of a guide template. tfplugindocs
// reads the file as a Go template, so `{{"{{"}}` stands for `{{` there.
func guideRenders(doc string) []guideRender {
	doc = strings.ReplaceAll(doc, `{{"{{"}}`, "{{")
	var out []guideRender
	var pending *guideRender
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		start := i + 1
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
		}
		if start >= len(lines) {
			break
		}
		body := strings.Join(lines[start+1:i], "\n") + "\n"
		switch first := lines[start]; {
		case strings.HasPrefix(first, "# variables: "):
			pending = &guideRender{line: start + 1, vars: []byte(strings.TrimPrefix(first, "# variables: ")), template: body}
		case first == "# output" && pending != nil:
			pending.output = body
			out = append(out, *pending)
			pending = nil
		}
	}
	return out
}

// Every worked example in the migration guide renders to exactly the
// output the guide shows.
func TestGuide_migratingExamplesRenderAsShown(t *testing.T) {
	doc, err := os.ReadFile(migratingGuide)
	if err != nil {
		t.Fatal(err)
	}
	examples := guideRenders(string(doc))
	if len(examples) < 2 {
		t.Fatalf("found %d worked examples in the guide, want at least 2", len(examples))
	}
	e := engine.New(engine.DefaultOptions())
	for _, ex := range examples {
		vars, err := decodeVars(ex.vars)
		if err != nil {
			t.Errorf("line %d: variables: %v", ex.line, err)
			continue
		}
		docs, err := e.Render(context.Background(), engine.Source{Text: []byte(ex.template)}, vars)
		if err != nil {
			t.Errorf("line %d: %v", ex.line, err)
			continue
		}
		got, err := engine.EncodeYAMLStream(docs)
		if err != nil {
			t.Errorf("line %d: %v", ex.line, err)
			continue
		}
		if !bytes.Equal(got, []byte(ex.output)) {
			t.Errorf("line %d: the output differs from the guide\n--- got:\n%s--- guide:\n%s", ex.line, got, ex.output)
		}
	}
}
