//go:build kubernetesmanifest

package kubernetesmanifest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// root is the repository's root.
const root = "../.."

// script runs one of the repository's scripts and returns what it prints on
// stdout (a path); its progress goes to the test's stderr.
func script(t *testing.T, name string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(root, "scripts", name))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scripts/%s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

// TestKubernetesManifestPlansEveryScenarioWithKnownKeys runs the scenario
// matrix under Terraform, then under OpenTofu: every variant of every
// scenario must plan with its keys known, apply, land on the server as
// its template says, plan empty, update in place only what a new input
// changes, and plan empty again; the scenarios of cannotPlan, and only
// they, must fail their first plan with their error.
func TestKubernetesManifestPlansEveryScenarioWithKnownKeys(t *testing.T) {
	cl := needCluster(t)
	ctx := context.Background()

	kubernetesProvider := script(t, "build-kubernetes-provider.sh")
	terraform := script(t, "find-terraform.sh")
	tofu := script(t, "build-tofu.sh")

	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "terraform-provider-celyaml"), ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build of the provider: %v\n%s", err, out)
	}
	// Both providers from folders, never a registry; terraform_data is
	// built in. OpenTofu reads the same addresses as
	// registry.opentofu.org/celyaml/celyaml and .../hashicorp/kubernetes.
	rc := filepath.Join(t.TempDir(), "terraformrc")
	write(t, rc, fmt.Sprintf(`provider_installation {
  dev_overrides {
    "celyaml/celyaml"      = %q
    "hashicorp/kubernetes" = %q
  }
  direct {}
}
`, bin, kubernetesProvider))

	cl.installCRD(ctx, t, crdText)

	results := map[string]map[string]string{}
	clis := []string{"terraform", "tofu"}
	for _, name := range clis {
		c := &cli{name: name, bin: terraform, dir: t.TempDir(), ns: "km-" + name}
		if name == "tofu" {
			c.bin = tofu
		}
		c.env = append(os.Environ(),
			"TF_CLI_CONFIG_FILE="+rc,
			"TF_DATA_DIR="+filepath.Join(c.dir, ".terraform"),
			"TF_IN_AUTOMATION=1",
			"CHECKPOINT_DISABLE=1",
			"KUBE_CONFIG_PATH="+os.Getenv("KUBECONFIG"),
		)
		cl.namespace(ctx, t, c.ns)
		t.Run(name, func(t *testing.T) {
			results[name] = runMatrix(t, c, cl)
		})
	}

	// The matrix, then what it must be.
	var ids []string
	for _, v := range variants() {
		ids = append(ids, v.id())
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-26s", "scenario")
	for _, name := range clis {
		fmt.Fprintf(&table, " | %s", name)
	}
	table.WriteString("\n")
	for _, id := range ids {
		fmt.Fprintf(&table, "%-26s", id)
		for _, name := range clis {
			r := results[name][id]
			if r == "" {
				r = "(not run)"
			}
			fmt.Fprintf(&table, " | %s", r)
		}
		table.WriteString("\n")
	}
	t.Logf("kubernetes_manifest matrix (the first step each variant fails, or ok):\n%s", table.String())

	var wrong []string
	for _, v := range variants() {
		for _, name := range clis {
			got := results[name][v.id()]
			if msg, ok := cannotPlan[v.scenario.name]; ok {
				if !strings.HasPrefix(got, stepPlan+": "+msg) {
					wrong = append(wrong, fmt.Sprintf("%s under %s: want the first plan to fail with %q, got %s", v.id(), name, msg, got))
				}
				continue
			}
			if got != resultPassed {
				wrong = append(wrong, fmt.Sprintf("%s under %s: %s", v.id(), name, got))
			}
		}
	}
	sort.Strings(wrong)
	for _, w := range wrong {
		t.Error(w)
	}
}
