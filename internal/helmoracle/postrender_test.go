//go:build helmoracle

package helmoracle

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/testcharts"
)

var (
	celyamlOnce sync.Once
	celyamlBin  string
	celyamlErr  error
	binDir      string // made and removed by TestMain
)

// TestMain makes the folder buildCelyaml builds into, for every test, and
// removes it afterwards.
func TestMain(m *testing.M) {
	var err error
	if binDir, err = os.MkdirTemp("", "helmoracle-bin-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(binDir)
	os.Exit(code)
}

// buildCelyaml builds cmd/celyaml once for the tests and returns its
// path: Helm runs it as a process of its own.
func buildCelyaml(t *testing.T) string {
	t.Helper()
	celyamlOnce.Do(func() {
		celyamlBin = filepath.Join(binDir, "celyaml")
		cmd := exec.Command("go", "build", "-o", celyamlBin, "./cmd/celyaml")
		cmd.Dir = testcharts.RepoRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			celyamlErr = fmt.Errorf("go build ./cmd/celyaml: %v\n%s", err, out)
		}
	})
	if celyamlErr != nil {
		t.Fatal(celyamlErr)
	}
	return celyamlBin
}

// installPlugin writes a Helm 4 post-renderer plugin named celyaml into
// home's plugins folder (HELM_PLUGINS, testcharts.HelmEnv): type
// postrenderer/v1, a subprocess whose command is `celyaml post-render`;
// --post-renderer-args come after it.
func installPlugin(t *testing.T, home, celyaml string) {
	t.Helper()
	dir := filepath.Join(home, "plugins", "celyaml")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := `apiVersion: v1
name: celyaml
type: postrenderer/v1
version: 0.1.0
runtime: subprocess
runtimeConfig:
  platformCommand:
    - command: ` + celyaml + `
      args: [post-render]
`
	if err := os.WriteFile(filepath.Join(dir, "plugin.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPostRender_asHelmPostRendererPlugin runs `helm template
// --post-renderer celyaml --post-renderer-args FILE` on a small chart:
// Helm hands the chart's stream to `celyaml post-render FILE` and prints
// what it gives back. The objects are those the same post-render gives in
// a pipeline (helm template | celyaml post-render FILE), with the
// overlay, the transform and the added document applied.
func TestPostRender_asHelmPostRendererPlugin(t *testing.T) {
	work := t.TempDir()
	celyaml := buildCelyaml(t)
	home := filepath.Join(work, "helm-home")
	installPlugin(t, home, celyaml)
	chart, err := filepath.Abs(filepath.Join("testdata", "web"))
	if err != nil {
		t.Fatal(err)
	}
	post, err := filepath.Abs(filepath.Join("testdata", "post.yaml"))
	if err != nil {
		t.Fatal(err)
	}

	got, err := testcharts.Template(t, home, "web", chart,
		"--post-renderer", "celyaml",
		"--post-renderer-args", post, "--post-renderer-args", "--set", "--post-renderer-args", "replicas=3")
	if err != nil {
		t.Fatal(err)
	}

	// The same post-render in a pipeline.
	plain, err := testcharts.Template(t, home, "web", chart)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(celyaml, "post-render", post, "--set", "replicas=3")
	cmd.Stdin = bytes.NewReader(plain)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	piped, err := cmd.Output()
	if err != nil {
		t.Fatalf("helm template | celyaml post-render: %v\n%s", err, stderr.String())
	}

	gotObjs, err := readStream(got)
	if err != nil {
		t.Fatal(err)
	}
	pipedObjs, err := readStream(piped)
	if err != nil {
		t.Fatal(err)
	}
	// Helm sorts what a post-renderer gives back into its install order
	// (the ConfigMap first); the objects are the same.
	wantIDs := []string{"_/ConfigMap/_/web-extra", "_/Service/_/web-web", "apps/Deployment/_/web-web"}
	if ids := ids(gotObjs); !reflect.DeepEqual(ids, wantIDs) {
		t.Errorf("helm --post-renderer gives %v, want %v\n%s", ids, wantIDs, got)
	}
	if d := compareStreams(sortedObjects(pipedObjs), sortedObjects(gotObjs)); len(d) != 0 {
		t.Errorf("helm --post-renderer and the pipeline differ:\n%s", strings.Join(d, "\n"))
	}
	for _, want := range []string{
		"replicas: 3",
		"image: mirror.example.com/library/nginx:1.27.0",
		"memory: 128Mi",
		"team: platform",
		"added: by post.yaml",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("helm --post-renderer's output has no %q:\n%s", want, got)
		}
	}
}

// TestPostRender_helmReportsAFailedPostRender: a post-render that fails
// (an overlay reads a key the Deployment lacks) fails helm template, and
// prints nothing. Helm 4.3.1 drops a post-renderer plugin's standard error
// (internal/plugin's subprocess runtime keeps it in a buffer it never
// reads), so Helm's message says only that the plugin exited with an
// error; the CLI guide says so and shows the pipeline that prints ours,
// which this test also checks.
func TestPostRender_helmReportsAFailedPostRender(t *testing.T) {
	work := t.TempDir()
	celyaml := buildCelyaml(t)
	home := filepath.Join(work, "helm-home")
	installPlugin(t, home, celyaml)
	chart, _ := filepath.Abs(filepath.Join("testdata", "web"))
	bad, _ := filepath.Abs(filepath.Join("testdata", "post-bad.yaml"))

	out, err := testcharts.Template(t, home, "web", chart, "--post-renderer", "celyaml", "--post-renderer-args", bad)
	if err == nil {
		t.Fatalf("helm template succeeded with a failing post-renderer:\n%s", out)
	}
	if !strings.Contains(err.Error(), `failed to invoke post-renderer plugin "celyaml": plugin "celyaml" exited with error`) {
		t.Errorf("helm's error: %v", err)
	}

	plain, err := testcharts.Template(t, home, "web", chart)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(celyaml, "post-render", bad)
	cmd.Stdin = bytes.NewReader(plain)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("celyaml post-render: %v, want exit 1", err)
	}
	want := bad + `:4:12: spec.replicas.$eval: no such key 'replica'; test for it with has(doc.spec.replica), or give a default with doc.spec.?replica.orValue(…)
  | ${{ doc.spec.replica + 1 }}
  | ............^
  while editing document 2 (apps/Deployment/_/web-web)
`
	if stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("celyaml post-render: stdout %q, stderr\n%s\nwant\n%s", stdout.String(), stderr.String(), want)
	}
}

func sortedObjects(objs []object) []object {
	out := append([]object(nil), objs...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].id < out[j-1].id; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
