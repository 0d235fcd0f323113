package provider

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/celyaml/terraform-provider-celyaml/internal/cli"
)

// handValues is a values file as people write them: comments, an anchor
// and its alias, keys out of order, mappings inside lists. Terraform reads
// it with yamldecode, the command with -f.
const handValues = `# values for the app
resources: &res
  requests: {memory: 64Mi, cpu: 100m}
  limits:
    memory: 1Gi   # the hard cap
    cpu: "1"
replicas: 3
tolerations:
  - operator: Exists
    key: gpu
    effect: NoSchedule
  - {value: "true", key: spot, operator: Equal}
annotations:
  z.example.com/b: two
  a.example.com/a: one
sidecar:
  resources: *res
`

// handTemplate writes its own keys sorted, so that to_yaml, which sorts
// every key, can stand for render_file's bytes; every map under them
// comes from the values.
const handTemplate = `annotations:
  $eval: ${{ annotations }}
merged:
  $eval: ${{ deepMerge(resources, {}) }}
replicas:
  $eval: ${{ replicas }}
resources:
  $eval: ${{ resources }}
sidecar:
  $eval: ${{ sidecar }}
tolerations:
  $eval: ${{ tolerations }}
`

// The CLI guide, "Byte identity with the provider": celyaml render prints
// what the celyaml_render data source holds, and what to_yaml makes of
// render_file's result, for a hand-written values file given by -f, by
// standard input and by the --set flags, whatever order it writes its keys
// in.
func TestAccCLI_renderPrintsTheProvidersBytesForHandWrittenValues(t *testing.T) {
	dir := t.TempDir()
	tmpl, vals := filepath.Join(dir, "app.yaml"), filepath.Join(dir, "values.yaml")
	if err := os.WriteFile(tmpl, []byte(handTemplate), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(vals, []byte(handValues), 0o600); err != nil {
		t.Fatal(err)
	}
	const want = `annotations:
  a.example.com/a: one
  z.example.com/b: two
merged:
  limits:
    cpu: "1"
    memory: 1Gi
  requests:
    cpu: 100m
    memory: 64Mi
replicas: 3
resources:
  limits:
    cpu: "1"
    memory: 1Gi
  requests:
    cpu: 100m
    memory: 64Mi
sidecar:
  resources:
    limits:
      cpu: "1"
      memory: 1Gi
    requests:
      cpu: 100m
      memory: 64Mi
tolerations:
  - effect: NoSchedule
    key: gpu
    operator: Exists
  - key: spot
    operator: Equal
    value: "true"
`
	res := `{"requests":{"memory":"64Mi","cpu":"100m"},"limits":{"memory":"1Gi","cpu":"1"}}`
	runs := []struct {
		name  string
		args  []string
		stdin string
	}{
		{name: "-f FILE", args: []string{"-f", vals}},
		{name: "-f -", args: []string{"-f", "-"}, stdin: handValues},
		{name: "--set flags", args: []string{
			"--set-json", "sidecar.resources=" + res,
			"--set", `annotations.z\.example\.com/b=two,annotations.a\.example\.com/a=one`,
			"--set-json", `tolerations=[{"operator":"Exists","key":"gpu","effect":"NoSchedule"}]`,
			"--set", "tolerations[1].value=true", // a YAML true: replaced below
			"--set-string", "tolerations[1].value=true,tolerations[1].key=spot,tolerations[1].operator=Equal",
			"--set", "replicas=3",
			"--set-string", "resources.requests.memory=64Mi,resources.requests.cpu=100m",
			"--set-json", `resources.limits={"memory":"1Gi","cpu":"1"}`,
		}},
	}
	outs := map[string]string{}
	for _, r := range runs {
		name := r.name
		for _, format := range []string{"yaml", "json"} {
			var stdout, stderr bytes.Buffer
			args := append([]string{"render", tmpl, "-o", format}, r.args...)
			if code := cli.Run(args, strings.NewReader(r.stdin), &stdout, &stderr); code != 0 {
				t.Fatalf("celyaml %s: exit %d:\n%s", strings.Join(args, " "), code, stderr.String())
			}
			outs[name+" "+format] = stdout.String()
		}
		if got := outs[name+" yaml"]; got != want {
			t.Errorf("celyaml render with %s:\n%s\nwant:\n%s", name, got, want)
		}
		if j := outs[name+" json"]; !strings.HasSuffix(j, "}\n") {
			t.Errorf("celyaml render -o json with %s does not end with the object and a newline: %q", name, j)
		}
		if outs[name+" json"] != outs["-f FILE json"] {
			t.Errorf("celyaml render -o json with %s:\n%s\nwith -f FILE:\n%s", name, outs[name+" json"], outs["-f FILE json"])
		}
	}
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
locals {
  values = yamldecode(file(` + jsonString(vals) + `))
}

data "celyaml_render" "app" {
  template_file = ` + jsonString(tmpl) + `
  context       = local.values
}

output "yaml" {
  value = data.celyaml_render.app.yaml
}

output "json" {
  value = data.celyaml_render.app.json
}

output "render_file" {
  value = provider::celyaml::to_yaml(provider::celyaml::render_file(` + jsonString(tmpl) + `, local.values))
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("yaml", knownvalue.StringExact(want)),
				// The attribute keeps the engine's bytes; the command adds
				// the newline that ends text on a terminal or in a pipe.
				statecheck.ExpectKnownOutputValue("json", knownvalue.StringExact(strings.TrimSuffix(outs["-f FILE json"], "\n"))),
				statecheck.ExpectKnownOutputValue("render_file", knownvalue.StringExact(want)),
			},
		}},
	})
}
