package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// pinned is the version a tools module's go.mod requires of module, without
// its "v": what scripts/build-cli.sh builds and CI tests against.
func pinned(t *testing.T, gomod, module string) string {
	t.Helper()
	b, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^require ` + regexp.QuoteMeta(module) + ` v(\d+\.\d+\.\d+)$`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s has no one-line `require %s vX.Y.Z`, which scripts/build-cli.sh reads", gomod, module)
	}
	return string(m[1])
}

func minor(version string) string {
	parts := strings.Split(version, ".")
	return parts[0] + "." + parts[1]
}

func readText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The oldest Terraform and OpenTofu that the README, the provider's docs
// (templates/index.md.tmpl, the provider's description, and docs/ generated
// from them) and the examples claim are the floors CI tests against: the
// versions tools/terraform-floor and tools/tofu-floor pin, which `make
// testacc-floors` and `make examples-floors` (both in .ci/run) build and run.
// Every patch release they name of a tested minor is the tested one, and the
// newest OpenTofu named is the one tools/tofu pins.
func TestClaimedVersionsAreTheTestedOnes(t *testing.T) {
	floor := map[string]string{
		"Terraform": pinned(t, "tools/terraform-floor/go.mod", "github.com/hashicorp/terraform"),
		"OpenTofu":  pinned(t, "tools/tofu-floor/go.mod", "github.com/opentofu/opentofu"),
	}
	tested := map[string][]string{
		"Terraform": {floor["Terraform"]},
		"OpenTofu":  {floor["OpenTofu"], pinned(t, "tools/tofu/go.mod", "github.com/opentofu/opentofu")},
	}

	// "Terraform 1.8 or later", "OpenTofu 1.7+".
	claim := regexp.MustCompile(`\b(Terraform|OpenTofu) (\d+\.\d+)(?:\+| or later)`)
	// "Terraform 1.8.5", "OpenTofu v1.12.6".
	release := regexp.MustCompile(`\b(Terraform|OpenTofu) v?(\d+\.\d+\.\d+)\b`)
	for _, name := range []string{"README.md", "templates/index.md.tmpl", "docs/index.md", "internal/provider/provider.go", "CHANGELOG.md", "examples/provider/provider.tf", ".ci/run"} {
		text := readText(t, name)
		claims := claim.FindAllStringSubmatch(text, -1)
		if len(claims) == 0 && name != ".ci/run" {
			t.Errorf("%s claims no oldest Terraform or OpenTofu (\"Terraform 1.N or later\")", name)
		}
		for _, c := range claims {
			if want := minor(floor[c[1]]); c[2] != want {
				t.Errorf("%s claims %q, but CI's oldest %s is %s (tools/%s-floor/go.mod): claim %s %s", name, c[0], c[1], floor[c[1]], strings.ToLower(strings.Replace(c[1], "OpenTofu", "tofu", 1)), c[1], want)
			}
		}
		for _, r := range release.FindAllStringSubmatch(text, -1) {
			for _, v := range tested[r[1]] {
				if minor(r[2]) == minor(v) && r[2] != v {
					t.Errorf("%s names %q, but CI tests %s %s", name, r[0], r[1], v)
				}
			}
			if r[1] == "OpenTofu" && !slices.Contains(tested["OpenTofu"], r[2]) {
				t.Errorf("%s names %q, but CI tests OpenTofu %s only", name, r[0], strings.Join(tested["OpenTofu"], " and "))
			}
		}
	}

	// Every example asks for the oldest Terraform claimed, and the script
	// that finds the Terraform on PATH refuses older ones.
	examples := regexp.MustCompile(`required_version\s*=\s*">= (\d+\.\d+)"`)
	for _, name := range []string{"examples/provider/provider.tf", "examples/kitchen-sink/main.tf", "examples/kubernetes/main.tf", "examples/overlays/main.tf", "examples/validation/main.tf", "examples/values-layering/main.tf"} {
		m := examples.FindStringSubmatch(readText(t, name))
		if m == nil || m[1] != minor(floor["Terraform"]) {
			t.Errorf("%s: required_version is %v, want \">= %s\"", name, m, minor(floor["Terraform"]))
		}
	}
	if m := regexp.MustCompile(`major == 1 && minor < (\d+)`).FindStringSubmatch(readText(t, "scripts/find-terraform.sh")); m == nil || "1."+m[1] != minor(floor["Terraform"]) {
		t.Errorf("scripts/find-terraform.sh refuses Terraform below 1.%v, want %s", m, minor(floor["Terraform"]))
	}

	// CI runs the floors.
	ci := readText(t, ".ci/run")
	for _, target := range []string{"testacc-floors", "examples-floors"} {
		if !regexp.MustCompile(`(?m)^step "[^"]+" make [^\n]*\b` + target + `\b`).MatchString(ci) {
			t.Errorf(".ci/run runs no `make %s` step", target)
		}
	}
}
