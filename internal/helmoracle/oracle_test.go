//go:build helmoracle

package helmoracle

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/cli"
	"github.com/celyaml/terraform-provider-celyaml/internal/testcharts"
	"github.com/celyaml/terraform-provider-celyaml/internal/validate/builtin"
)

// kubeVersion is the Kubernetes version `$chart` gives .Capabilities when
// the template names none: the minor of the built-in schemas (reference
// §11), as `helm template --kube-version` takes it.
func kubeVersion(t *testing.T) string {
	name, _ := builtin.Bundle()
	minor := strings.TrimSuffix(strings.TrimPrefix(name, "kubernetes-"), ".json.gz")
	if minor == "" {
		t.Fatal("this build carries no built-in schema bundle: run make builtin-schemas")
	}
	return "v" + minor + ".0"
}

// A render is one chart with one value set, prepared once and rendered by
// helm and by us.
type render struct {
	chart      testcharts.Chart
	set        testcharts.ValueSet
	dir        string // the chart's copied folder
	valuesFile string // "" for the defaults
	work       string // a folder of its own
	// option is a $chart key beside $values and the helm template flags
	// it stands for, or the zero option.
	option option
}

// An option is a $chart key that stands for helm template flags.
type option struct {
	name string   // in the render's key: "no-hooks"
	key  string   // the $chart document's line: "$hooks: false"
	helm []string // helm template's flags for it
}

// options are the $chart keys the oracle also compares, each on one
// render: hooks left out (--no-hooks; cert-manager's startupapicheck Job
// is a hook), the chart's tests kept (helm template without
// --skip-tests; kyverno has test Pods: podinfo's are named with
// randAlphaNum, which no oracle can compare), Kubernetes and API versions
// given (--kube-version, --api-versions; podinfo's HPA and cert-manager's
// PodDisruptionBudget ask .Capabilities).
var options = map[string]option{
	"cert-manager/defaults":   {name: "no-hooks", key: "$hooks: false", helm: []string{"--no-hooks"}},
	"kyverno/grafana-no-crds": {name: "with-tests", key: "$skipTests: false", helm: []string{"--skip-tests=false"}},
	"podinfo/values-prod": {name: "capabilities", key: "$kubeVersion: v1.30.2\n$apiVersions: [monitoring.coreos.com/v1]",
		helm: []string{"--kube-version", "v1.30.2", "--api-versions", "monitoring.coreos.com/v1"}},
}

func (r render) key() string {
	k := r.chart.Name + "/" + r.set.Name
	if r.option.name != "" {
		k += "/" + r.option.name
	}
	return k
}

// renders copies every chart once and gives every value set of each.
func renders(t *testing.T) []render {
	t.Helper()
	root := t.TempDir()
	var out []render
	for _, c := range testcharts.Charts {
		dir := c.CopyTo(t, filepath.Join(root, "charts"))
		for _, s := range c.ValueSets {
			work := filepath.Join(root, c.Name+"-"+s.Name)
			if err := os.MkdirAll(work, 0o755); err != nil {
				t.Fatal(err)
			}
			r := render{chart: c, set: s, dir: dir, valuesFile: s.ValuesFile(t, dir, work), work: work}
			out = append(out, r)
			if o, ok := options[r.key()]; ok {
				r.option = o
				r.work = filepath.Join(root, c.Name+"-"+s.Name+"-"+o.name)
				if err := os.MkdirAll(r.work, 0o755); err != nil {
					t.Fatal(err)
				}
				out = append(out, r)
			}
		}
	}
	return out
}

// helmTemplate is `helm template RELEASE CHART -n NS --kube-version V
// --skip-tests [-f VALUES]`: what `$chart` renders by default (hooks in,
// tests out, no crds/ folder, the built-in schemas' minor), then the
// flags of r's option.
func helmTemplate(t *testing.T, r render, kube string) []byte {
	t.Helper()
	args := []string{r.chart.Release, r.dir, "--namespace", r.chart.Namespace, "--kube-version", kube, "--skip-tests"}
	if r.valuesFile != "" {
		args = append(args, "--values", r.valuesFile)
	}
	args = append(args, r.option.helm...) // the last --kube-version and --skip-tests win
	out, err := testcharts.Template(t, filepath.Join(r.work, "helm-home"), args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// chartTemplate is the template `celyaml render` renders for r: one
// `$chart` document with the release, and the value set as the variable
// values (celyaml render -f values=FILE).
func chartTemplate(r render) string {
	var b strings.Builder
	b.WriteString("$chart: " + r.dir + "\n")
	b.WriteString("$release: {name: " + r.chart.Release + ", namespace: " + r.chart.Namespace + "}\n")
	if r.valuesFile != "" {
		b.WriteString("$values:\n  $eval: ${{ values }}\n")
	}
	if r.option.key != "" {
		b.WriteString(r.option.key + "\n")
	}
	return b.String()
}

// celyamlRender is `celyaml render TEMPLATE [-f values=FILE]`, the command
// run in this process.
func celyamlRender(t *testing.T, r render) []byte {
	t.Helper()
	tmpl := filepath.Join(r.work, "chart.yaml")
	if err := os.WriteFile(tmpl, []byte(chartTemplate(r)), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"render", tmpl}
	if r.valuesFile != "" {
		args = append(args, "-f", "values="+r.valuesFile)
	}
	var stdout, stderr bytes.Buffer
	if code := cli.Run(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("celyaml %s: exit %d\n%s\ntemplate:\n%s", strings.Join(args, " "), code, stderr.String(), chartTemplate(r))
	}
	return stdout.Bytes()
}

// TestChart_sameObjectsAsHelmTemplate renders every real chart with every
// value set with `celyaml render` of `$chart` and with `helm template`,
// and holds the differences, object by object and in order, to exactly
// the known ones (known_test.go), which the CLI guide lists.
func TestChart_sameObjectsAsHelmTemplate(t *testing.T) {
	kube := kubeVersion(t)
	seen := map[string]bool{}
	var mu sync.Mutex
	t.Run("charts", func(t *testing.T) {
		for _, r := range renders(t) {
			t.Run(r.key(), func(t *testing.T) {
				t.Parallel()
				helm, err := readStream(helmTemplate(t, r, kube))
				if err != nil {
					t.Fatalf("helm template's output: %v", err)
				}
				if len(helm) == 0 {
					t.Fatal("helm template gives no object: the case tests nothing")
				}
				ours, err := readStream(celyamlRender(t, r))
				if err != nil {
					t.Fatalf("celyaml render's output: %v", err)
				}
				got := compareStreams(helm, ours)
				var want []string
				for _, k := range known {
					if k.applies(r.key()) {
						mu.Lock()
						seen[k.line] = true
						mu.Unlock()
						want = append(want, k.line)
					}
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("differences from helm template (%d objects):\n got: %s\nwant: %s\ntemplate:\n%s",
						len(helm), strings.Join(got, "\n      "), strings.Join(want, "\n      "), chartTemplate(r))
				}
			})
		}
	})
	for _, k := range known {
		if k.why == "" {
			t.Errorf("known difference %q says no why", k.line)
		}
		if !seen[k.line] && !t.Failed() {
			t.Errorf("known difference %q appears in no render", k.line)
		}
	}
}

// TestCompare_findsEveryKindOfDifference proves the comparison on a real
// chart's output: helm against itself gives nothing; another order, a
// missing object, a changed value, a value read differently (an unquoted
// on, YAML 1.1's true for kubectl) each give their line.
func TestCompare_findsEveryKindOfDifference(t *testing.T) {
	kube := kubeVersion(t)
	var r render
	for _, x := range renders(t) {
		if x.key() == "podinfo/features" {
			r = x
		}
	}
	out := helmTemplate(t, r, kube)
	helm, err := readStream(out)
	if err != nil {
		t.Fatal(err)
	}
	again, err := readStream(helmTemplate(t, r, kube))
	if err != nil {
		t.Fatal(err)
	}
	if d := compareStreams(helm, again); len(d) != 0 {
		t.Fatalf("helm template against itself: %v", d)
	}
	if len(helm) < 3 {
		t.Fatalf("want at least 3 objects to shuffle, got %d", len(helm))
	}
	swapped := append([]object{helm[1], helm[0]}, helm[2:]...)
	want := "order: object 0 is " + helm[0].id + " in helm, " + helm[1].id + " in ours"
	if d := compareStreams(helm, swapped); !reflect.DeepEqual(d, []string{want}) {
		t.Errorf("swapped: got %q, want %q", d, want)
	}
	if d := compareStreams(helm, helm[1:]); !reflect.DeepEqual(d, []string{"count: helm " + strconv.Itoa(len(helm)) + " objects, ours " + strconv.Itoa(len(helm)-1), helm[0].id + ": only in helm"}) {
		t.Errorf("missing: got %q", d)
	}
	// The same stream with a label added, written another way: flow style,
	// other quotes, comments; and a value kubectl reads as a bool.
	edited := strings.Replace(string(out), "\nmetadata:\n", "\n# a comment\nmetadata: \n  labels: {\"extra\": 'on'}\n  annotations:\n    flag: on\n", 1)
	ed, err := readStream([]byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	d := compareStreams(helm, ed)
	if len(d) == 0 {
		t.Fatal("an edited stream compares equal")
	}
	for _, line := range d {
		if !strings.Contains(line, `helm absent, ours {"extra":"on"}`) && !strings.Contains(line, `helm absent, ours {"flag":true}`) &&
			!strings.Contains(line, "metadata.labels") {
			t.Errorf("unexpected line %q", line)
		}
	}
}

// TestHelm_templateIsTheSameTwice renders every chart with every value set
// twice with helm template: the oracle is only an oracle where Helm is
// deterministic (a chart that generates a certificate or a password with
// genCA or randAlphaNum is not, and such values would be listed apart).
func TestHelm_templateIsTheSameTwice(t *testing.T) {
	kube := kubeVersion(t)
	for _, r := range renders(t) {
		t.Run(r.key(), func(t *testing.T) {
			t.Parallel()
			a, err := readStream(helmTemplate(t, r, kube))
			if err != nil {
				t.Fatal(err)
			}
			b, err := readStream(helmTemplate(t, r, kube))
			if err != nil {
				t.Fatal(err)
			}
			if len(a) == 0 {
				t.Fatal("no object")
			}
			if d := compareStreams(a, b); len(d) != 0 {
				t.Errorf("helm template twice: %s", strings.Join(d, "\n  "))
			}
			t.Logf("%d objects", len(a))
		})
	}
}

// TestChart_duplicateKeyHelmPrintsIsAnError is the one difference the
// oracle knows of, listed in the CLI guide: podinfo with a pod annotation
// the chart writes itself (prometheus.io/scrape) renders a Deployment
// whose annotations hold that key twice. helm template prints it so (and
// what reads it then keeps one or refuses it, as its YAML reader does);
// `$chart` refuses it, naming the chart file and the key.
func TestChart_duplicateKeyHelmPrintsIsAnError(t *testing.T) {
	var r render
	for _, x := range renders(t) {
		if x.key() == "podinfo/defaults" {
			r = x
		}
	}
	r.set = testcharts.ValueSet{Name: "duplicate-annotation", YAML: "podAnnotations:\n  prometheus.io/scrape: \"false\"\n"}
	r.valuesFile = r.set.ValuesFile(t, r.dir, r.work)

	out := string(helmTemplate(t, r, kubeVersion(t)))
	if !strings.Contains(out, "prometheus.io/scrape: \"true\"\n") || !strings.Contains(out, "prometheus.io/scrape: \"false\"\n") {
		t.Fatalf("helm template no longer prints the key twice:\n%s", out)
	}

	tmpl := filepath.Join(r.work, "chart.yaml")
	if err := os.WriteFile(tmpl, []byte(chartTemplate(r)), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := cli.Run([]string{"render", tmpl, "-f", "values=" + r.valuesFile}, strings.NewReader(""), &stdout, &stderr)
	want := tmpl + `:1:1: $chart: the chart's podinfo/templates/deployment.yaml renders a document that cannot be read (line 27 of the document): duplicate key "prometheus.io/scrape": already written at line 25, column 9` + "\n"
	if code != 1 || stdout.Len() != 0 || stderr.String() != want {
		t.Errorf("celyaml render: exit %d, stdout %q, stderr\n%s\nwant\n%s", code, stdout.String(), stderr.String(), want)
	}
}
