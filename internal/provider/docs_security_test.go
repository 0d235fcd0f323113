package provider

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// The security guide warns that Terraform prints the values of arguments
// that are not sensitive, and what it quotes from Terraform is what the
// provider's message and the example's template give.
func TestDocs_securityGuideWarnsThatTerraformPrintsArguments(t *testing.T) {
	raw, err := os.ReadFile("../../templates/guides/security.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.ReplaceAll(string(raw), `{{"{{"}}`, "{{")
	const heading = "**Terraform itself prints the values of arguments that are not\nsensitive.**"
	_, section, ok := strings.Cut(doc, heading)
	if !ok {
		t.Fatalf("the security guide has no paragraph starting %q", heading)
	}
	section, _, _ = strings.Cut(section, "\n**Sensitive values.**")
	flat := oneLine(section)
	for _, want := range []string{
		"Pass secrets as `sensitive` variables, and Terraform leaves them out.",
		"Wrapping the value in `sensitive()` inside the call does not help",
		`│ var.db_password is "hunter2"`,
		"With `sensitive = true` added to the `variable` block, the same error comes without the `var.db_password is \"hunter2\"` line.",
	} {
		if !strings.Contains(flat, oneLine(want)) {
			t.Errorf("the paragraph does not say: %s", want)
		}
	}

	// The template in the example, as HCL reads the string literal.
	const hclTemplate = `"port: {$eval: \"$${{ int(password) }}\"}"`
	if !strings.Contains(section, "provider::celyaml::render("+hclTemplate) {
		t.Fatalf("the example does not call render with %s", hclTemplate)
	}
	tmpl := strings.NewReplacer(`\"`, `"`, "$${", "${").Replace(strings.Trim(hclTemplate, `"`))
	_, renderErr := engine.New(engine.DefaultOptions()).Render(context.Background(),
		engine.Source{Text: []byte(tmpl)}, map[string]value.Value{"password": "hunter2"})
	if renderErr == nil {
		t.Fatal("the example's template renders; the guide shows it failing")
	}
	if strings.Contains(renderErr.Error(), "hunter2") {
		t.Fatalf("the provider's own message shows the value: %v", renderErr)
	}
	// Terraform wraps the provider's function error (funcErrorText) to its
	// width and ends it with a full stop.
	const prefix = `Call to function "provider::celyaml::render" failed: `
	_, quoted, ok := strings.Cut(section, prefix)
	if !ok {
		t.Fatalf("the guide does not quote %q", prefix)
	}
	quoted, _, _ = strings.Cut(quoted, "\n```")
	if oneLine(quoted) != oneLine(funcErrorText(renderErr)+".") {
		t.Errorf("the guide quotes the provider's message as\n%s\nbut the provider says\n%s", quoted, renderErr)
	}
}
