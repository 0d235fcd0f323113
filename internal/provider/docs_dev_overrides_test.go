package provider

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// overrideTarget is the directory a dev_overrides entry names.
var overrideTarget = regexp.MustCompile(`("celyaml/celyaml" = )"[^"]*"`)

// fencedBlocks lists the bodies of the Markdown code blocks of one
// language in doc.
func fencedBlocks(doc, lang string) []string {
	var out []string
	for rest := doc; ; {
		_, after, ok := strings.Cut(rest, "```"+lang+"\n")
		if !ok {
			return out
		}
		body, tail, ok := strings.Cut(after, "```")
		if !ok {
			return out
		}
		out = append(out, body)
		rest = tail
	}
}

// The README and the docs index show the CLI configuration that
// scripts/with-dev-provider.sh writes, and say how to use it: the file is
// named by TF_CLI_CONFIG_FILE, the provider needs no `terraform init`, and
// modules come from `terraform get`.
func TestDocs_localBuildConfigIsWhatTheDevScriptWrites(t *testing.T) {
	script, err := os.ReadFile("../../scripts/with-dev-provider.sh")
	if err != nil {
		t.Fatal(err)
	}
	_, heredoc, ok := strings.Cut(string(script), "cat >\"$tmp/terraformrc\" <<CONFIG\n")
	if !ok {
		t.Fatal("scripts/with-dev-provider.sh no longer writes $tmp/terraformrc with a CONFIG here-document")
	}
	heredoc, _, _ = strings.Cut(heredoc, "\nCONFIG\n")
	want := overrideTarget.ReplaceAllString(heredoc+"\n", `$1"DIR"`)
	if !strings.Contains(want, `"celyaml/celyaml" = "DIR"`) {
		t.Fatalf("the script's configuration has no celyaml/celyaml override:\n%s", heredoc)
	}

	for _, path := range []string{"../../README.md", "../../templates/index.md.tmpl"} {
		doc, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var found int
		for _, block := range fencedBlocks(string(doc), "hcl") {
			if !strings.Contains(block, "dev_overrides") {
				continue
			}
			found++
			if got := overrideTarget.ReplaceAllString(block, `$1"DIR"`); got != want {
				t.Errorf("%s shows\n%s\nbut scripts/with-dev-provider.sh writes\n%s", path, block, heredoc)
			}
		}
		if found != 1 {
			t.Errorf("%s has %d hcl blocks with dev_overrides, want 1", path, found)
		}
		flat := oneLine(string(doc))
		for _, say := range []string{
			`export TF_CLI_CONFIG_FILE="$HOME/celyaml-dev/terraformrc"`,
			"terraform get # only if the configuration has modules",
			"no `terraform init`",
			"as an absolute path",
		} {
			if !strings.Contains(flat, say) {
				t.Errorf("%s does not say %q", path, say)
			}
		}
	}
}
