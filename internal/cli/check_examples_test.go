package cli

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// examplesDir is the repository's examples, each a module or a snippet of
// the documentation.
const examplesDir = "../../examples"

// failingExample is the example that shows what check finds: its typo is
// the CLI guide's (Language server), and its exact output is asserted by
// cmd/celyaml/testdata/script/check_typo_example.txtar.
const failingExample = "check-typo"

// TestCheck_everyExamplePassesOnItsOwn runs `celyaml check` over the YAML
// files of each example, as `celyaml check templates/*.yaml` would: no
// values, so each template declares its inputs with $schema, and a
// partial or helpers file is checked as part of the template that
// includes it.
func TestCheck_everyExamplePassesOnItsOwn(t *testing.T) {
	examples := map[string][]string{}
	err := filepath.WalkDir(examplesDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			if _, statErr := os.Stat(filepath.Join(path, "Chart.yaml")); statErr == nil {
				return filepath.SkipDir // a Helm chart (examples/helm-chart): Helm's templates, not CEL-YAML
			}
		}
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		rel, _ := filepath.Rel(examplesDir, path)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		name := parts[0]
		if name == failingExample {
			return nil
		}
		if name == "data-sources" || name == "functions" {
			name += "/" + parts[1] // each snippet is an example of its own
		}
		examples[name] = append(examples[name], path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(examples) < 5 {
		t.Fatalf("found %d examples with templates under %s, want the repository's", len(examples), examplesDir)
	}
	names := make([]string, 0, len(examples))
	for n := range examples {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(strings.ReplaceAll(name, "/", "_"), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"check", "--strict"}, examples[name]...)
			if code := run(t.Context(), args, strings.NewReader(""), &stdout, &stderr); code != 0 || stderr.Len() > 0 || stdout.Len() > 0 {
				t.Errorf("celyaml %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
			}
		})
	}
}
