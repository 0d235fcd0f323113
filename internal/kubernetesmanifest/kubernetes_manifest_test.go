//go:build kubernetesmanifest

package kubernetesmanifest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

// root is the repository's root.
const root = "../.."

// shards is how many configurations the scenarios that plan are split
// into, per CLI; the test runs them all at once (go test -parallel must
// allow 2*(shards+1) tests).
const shards = 2

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

	// The scenarios that cannot plan run in a configuration of their own:
	// a plan that fails costs as much as one that passes, and the others
	// would have to be planned again without them.
	var planning, failing []variant
	for _, v := range variants() {
		if _, ok := cannotPlan[v.scenario.name]; ok {
			failing = append(failing, v)
		} else {
			planning = append(planning, v)
		}
	}
	// kubernetes_manifest's client-go sends at most 5 requests a second
	// (its default; the provider has no setting for it), so a matrix
	// waits on that far more than on the CPU: the two CLIs, and halves of
	// the scenarios that plan, run side by side, each a CLI and provider
	// processes of its own.
	var groups [][]variant
	for i := 0; i < shards; i++ {
		var g []variant
		for j := i; j < len(planning); j += shards {
			g = append(g, planning[j])
		}
		groups = append(groups, g)
	}
	groups = append(groups, failing)

	var mu sync.Mutex
	results := map[string]map[string]string{}
	clis := []string{"terraform", "tofu"}
	t.Run("matrix", func(t *testing.T) {
		for _, name := range clis {
			bin := terraform
			if name == "tofu" {
				bin = tofu
			}
			ns := "km-" + name
			cl.namespace(ctx, t, ns)
			results[name] = map[string]string{}
			for i, vs := range groups {
				if len(vs) == 0 {
					continue
				}
				t.Run(fmt.Sprintf("%s-%d", name, i), func(t *testing.T) {
					t.Parallel()
					dir := t.TempDir()
					c := &cli{name: fmt.Sprintf("%s-%d", name, i), bin: bin, dir: dir, ns: ns, env: append(os.Environ(),
						"TF_CLI_CONFIG_FILE="+rc,
						"TF_DATA_DIR="+filepath.Join(dir, ".terraform"),
						"TF_IN_AUTOMATION=1",
						"CHECKPOINT_DISABLE=1",
						"KUBE_CONFIG_PATH="+os.Getenv("KUBECONFIG"),
					)}
					r := runMatrix(t, c, cl, vs)
					mu.Lock()
					defer mu.Unlock()
					for id, res := range r {
						results[name][id] = res
					}
				})
			}
		}
	})

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
				if !strings.HasPrefix(got, stepPlan+": ") || !regexp.MustCompile(msg).MatchString(got) {
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

// cannotPlan names only scenarios of the matrix, and only a document-root
// $if among the templates (the twins are kubernetes_manifest's own
// limits): a stale or misspelt entry would assert nothing. It needs no
// server.
func TestCannotPlanListsOnlyScenariosOfTheMatrix(t *testing.T) {
	names := map[string]*scenario{}
	for i := range scenarios {
		names[scenarios[i].name] = &scenarios[i]
	}
	var got []string
	for name := range cannotPlan {
		sc, ok := names[name]
		switch {
		case !ok:
			t.Errorf("cannotPlan names %q, which is no scenario", name)
		case sc.twin == "":
			got = append(got, name)
		}
	}
	sort.Strings(got)
	if want := []string{"if-doc"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the templates that cannot plan are %v, want %v (the unknown-values guide lists those)", got, want)
	}
}
