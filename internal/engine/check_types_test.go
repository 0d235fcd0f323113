package engine_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// typeProblem reports whether a problem of Check is one the type checker
// finds: check does not render, so these messages come from it alone.
func typeProblem(p engine.Problem) bool {
	for _, s := range []string{"undefined field '", "no matching overload for", "$for can only iterate", "the $if condition must be a bool",
		"$assert must be a bool", "$include takes a file path string"} {
		if strings.Contains(p.Err.Msg, s) {
			return true
		}
	}
	return false
}

// TestCheckTypes_noFalseErrorInTheGoldenCases type-checks every golden
// case that renders: none may have a type error, since each renders with
// its values (and every value a $schema accepts has the type check gives
// it).
func TestCheckTypes_noFalseErrorInTheGoldenCases(t *testing.T) {
	n := 0
	for _, c := range loadGoldenCases(t) {
		if _, isErr := c.section(secError); isErr || strings.HasPrefix(c.name, "error_") {
			continue
		}
		opts := c.options(t)
		var err error
		vars := map[string]value.Value{}
		if data, ok := c.section(secVars); ok {
			if vars, err = decodeVars(data); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		e := engine.New(opts)
		src, err := e.LoadFile(t.Context(), secTemplate)
		if err != nil {
			continue // a limit case: the template is not read
		}
		problems, _ := e.Check(t.Context(), src, func(name string) bool { _, ok := vars[name]; return ok })
		for _, p := range problems {
			if typeProblem(p) {
				t.Errorf("%s: a type error in a case that renders: %s", c.name, p.Err.Error())
			}
		}
		n++
	}
	if n < 100 {
		t.Fatalf("type-checked %d golden cases, want every one that renders", n)
	}
}

// TestCheckTypes_noFalseErrorInTheExamples type-checks every template of
// examples/: they all render, but examples/check-typo, whose type error is
// the one the CLI guide shows (cmd/celyaml's check_typo_example.txtar).
func TestCheckTypes_noFalseErrorInTheExamples(t *testing.T) {
	root := filepath.Join("..", "..", "examples")
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && (d.Name() == "check-typo" || isHelmChart(path)) {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() || filepath.Ext(path) != ".yaml" {
			return err
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		e := engine.New(engine.DefaultOptions())
		problems, _ := e.Check(t.Context(), engine.Source{Name: path, Text: text}, func(string) bool { return true })
		for _, p := range problems {
			if typeProblem(p) {
				t.Errorf("%s: a type error in an example: %s", path, p.Err.Error())
			}
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Fatalf("type-checked %d examples, want every template", n)
	}
}

// isHelmChart reports whether dir is a Helm chart (examples/helm-chart's
// charts): its files are Helm's templates and values, not CEL-YAML.
func isHelmChart(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "Chart.yaml"))
	return err == nil
}
