package provider

import (
	"strings"
	"testing"
)

// cliSecret is the secret these tests hand to Terraform: read from a file
// and wrapped in sensitive(), so that it is no input variable (whose value
// `terraform show -json` prints) and every value Terraform derives from it
// is marked.
const cliSecret = "HUNTER2VAR"

const cliSecretLocals = `
locals {
  pw = sensitive(trimspace(file("${path.module}/secret.txt")))
}
`

func cliFiles(config string) map[string]string {
	return map[string]string{"main.tf": terraformHeader + cliSecretLocals + config, "secret.txt": cliSecret + "\n"}
}

// assertNoSecret fails when the secret is in the plan's text, in the
// TF_LOG=TRACE file, or in what `terraform show -json` leaves unmarked.
func assertNoSecret(t *testing.T, r cliRun) {
	t.Helper()
	if strings.Contains(r.Output, cliSecret) {
		t.Errorf("the plan output shows the secret:\n%s", r.Output)
	}
	if i := strings.Index(r.Log, cliSecret); i >= 0 {
		t.Errorf("the TF_LOG file shows the secret: …%s…", r.Log[max(0, i-300):min(len(r.Log), i+100)])
	}
	if r.Show != "" {
		if u := unmarkedJSON(t, r.Show); strings.Contains(u, cliSecret) {
			t.Errorf("terraform show -json has the secret in an unmarked value:\n%s", u)
		}
	}
}

// The safe form of the README: sensitive = true, the results read from the
// sensitive_ attributes. The plan, its JSON and the trace log never show
// the secret. The form without it shows the secret and warns.
func TestAccCLI_dataSourceSensitiveHidesSecrets(t *testing.T) {
	tf := newCLITerraform(t)
	const template = `
data "celyaml_render" "app" {
  template = <<-EOT
    apiVersion: v1
    kind: Secret
    metadata:
      name: db
    stringData:
      password:
        $eval: "$${{ pw }}"
  EOT
  context = { pw = local.pw }
`
	safe := tf.plan(t, "safe", cliFiles(template+`  sensitive = true
}

resource "terraform_data" "secret" {
  for_each = toset(nonsensitive(keys(data.celyaml_render.app.sensitive_manifests)))
  input    = data.celyaml_render.app.sensitive_manifests[each.key]
}

output "yaml" {
  value     = data.celyaml_render.app.sensitive_yaml
  sensitive = true
}
`))
	if safe.Failed {
		t.Fatalf("the safe form failed:\n%s", safe.Output)
	}
	for _, want := range []string{`terraform_data.secret["_/Secret/_/db"] will be created`, "(sensitive value)"} {
		if !strings.Contains(safe.Output, want) {
			t.Errorf("the plan does not say %q:\n%s", want, safe.Output)
		}
	}
	if strings.Contains(safe.Output, "Warning: Rendered Secret data") {
		t.Errorf("the safe form warns:\n%s", safe.Output)
	}
	if !strings.Contains(safe.Show, cliSecret) {
		t.Fatalf("terraform show -json does not hold the rendered secret at all, so its absence from unmarked values proves nothing")
	}
	assertNoSecret(t, safe)

	unsafe := tf.plan(t, "unsafe", cliFiles(template+`}

output "yaml" {
  value = data.celyaml_render.app.yaml
}
`))
	if unsafe.Failed {
		t.Fatalf("the unsafe form failed:\n%s", unsafe.Output)
	}
	for _, want := range []string{"Warning: Rendered Secret data is not marked sensitive", "Set sensitive = true"} {
		if !strings.Contains(unsafe.Output, want) {
			t.Errorf("the plan does not warn %q:\n%s", want, unsafe.Output)
		}
	}
	if !strings.Contains(unsafe.Output, cliSecret) {
		t.Errorf("without sensitive = true Terraform prints the secret, which is why the warning exists; the plan no longer does:\n%s", unsafe.Output)
	}
}

// overlaySecretTemplate renders a Secret named by the variable name, with
// the password pw, and an overlay that fails on it.
const overlaySecretTemplate = `apiVersion: v1
kind: Secret
metadata:
  name: {$eval: "${{ name }}"}
stringData:
  password: {$eval: "${{ pw }}"}
---
$overlay: "true"
data:
  port: {$eval: "${{ doc.data.port }}"}
`

// cliErrorCase is a configuration whose plan fails with an error that
// would print the secret if keys, names and IDs were not hidden.
type cliErrorCase struct {
	name   string
	config string
	files  map[string]string
	want   []string // in the plan output, each on one line as Terraform wraps it
	logged string   // in the TF_LOG file
}

// Errors keep values out of the plan output and out of the TF_LOG=TRACE
// file; they name keys and whole manifest IDs, a name that a variable
// gives included, and with sensitive = true hide the keys, names and
// manifest-ID parts that come from variables too (reference §6). The
// secret reaches the provider through a file, read with jsondecode(file()),
// so that Terraform itself, which prints the references of a failing call,
// has none to print.
func TestAccCLI_errorsHideValuesAndSensitiveKeys(t *testing.T) {
	tf := newCLITerraform(t)
	widgetCRD := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
`
	cases := []cliErrorCase{
		{name: "schema_additional_properties", config: `
data "celyaml_render" "x" {
  template = <<-EOT
    $schema:
      m:
        type: object
        propertyNames: {maxLength: 5}
        additionalProperties:
          type: object
          required: [name]
          properties:
            port: {type: integer}
    ok: true
  EOT
  context = jsondecode(file("${path.module}/ctx.json"))
  sensitive = true
}
`, files: map[string]string{"ctx.json": `{"m": {"HUNTER2VAR": {"port": "eighty"}}}`},
			logged: "property name does not match propertyNames",
			want:   []string{`m[…]: missing required property "name"`, "m[…]: property name does not match propertyNames", "m[…].port: expected integer, got string"}},
		{name: "duplicate_manifest_id", config: `
data "celyaml_render" "x" {
  template = <<-EOT
    apiVersion: v1
    kind: Secret
    metadata:
      name: {$eval: "$${{ a }}"}
    ---
    apiVersion: v1
    kind: Secret
    metadata:
      name: {$eval: "$${{ b }}"}
  EOT
  context = jsondecode(file("${path.module}/ctx.json"))
  sensitive = true
}
`, files: map[string]string{"ctx.json": `{"a": "HUNTER2VAR", "b": "HUNTER2VAR"}`},
			logged: "have the same manifest ID",
			want:   []string{"Duplicate manifest ID", `"_/Secret/_/…"`}},
		{name: "duplicate_manifest_id_names_the_id", config: `
data "celyaml_render" "x" {
  template = <<-EOT
    apiVersion: v1
    kind: Secret
    metadata:
      name: {$eval: "$${{ name }}"}
    stringData:
      password: {$eval: "$${{ pw }}"}
    ---
    apiVersion: v1
    kind: Secret
    metadata:
      name: {$eval: "$${{ name }}"}
    stringData:
      password: {$eval: "$${{ pw }}"}
  EOT
  context = jsondecode(file("${path.module}/ctx.json"))
}
`, files: map[string]string{"ctx.json": `{"name": "db-credentials", "pw": "HUNTER2VAR"}`},
			logged: "have the same manifest ID",
			want:   []string{"Duplicate manifest ID", `"_/Secret/_/db-credentials"`}},
		{name: "overlay_names_the_document", config: `
data "celyaml_render" "x" {
  template = file("${path.module}/overlay.yaml")
  context  = jsondecode(file("${path.module}/ctx.json"))
}
`, files: map[string]string{"overlay.yaml": overlaySecretTemplate, "ctx.json": `{"name": "db-credentials", "pw": "HUNTER2VAR"}`},
			logged: "while editing document 1",
			want:   []string{"while editing document 1 (_/Secret/_/db-credentials)"}},
		{name: "overlay_sensitive_hides_the_name", config: `
data "celyaml_render" "x" {
  template  = file("${path.module}/overlay.yaml")
  context   = jsondecode(file("${path.module}/ctx.json"))
  sensitive = true
}
`, files: map[string]string{"overlay.yaml": overlaySecretTemplate, "ctx.json": `{"name": "HUNTER2VAR", "pw": "HUNTER2VAR"}`},
			logged: "while editing document 1",
			want:   []string{"while editing document 1 (_/Secret/_/…)"}},
		{name: "validate_names_keys_and_ids", config: `
output "v" {
  value = provider::celyaml::validate(
    [jsondecode(file("${path.module}/doc.json"))],
    provider::celyaml::render_file("${path.module}/crd.yaml", {}),
  )
}
`, files: map[string]string{"crd.yaml": widgetCRD,
			"doc.json": `{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "web", "namespace": "prod"}, "spec": {"replicas": "HUNTER2VAR", "replicaz": 1}}`},
			logged: "field not declared in schema",
			want: []string{"example.com/Widget/prod/web: spec.replicas: Invalid value: expected numeric (int or float), got string",
				"example.com/Widget/prod/web: spec.replicaz: Invalid value: field not declared in schema"}},
		{name: "validate_version", config: `
output "v" {
  value = provider::celyaml::validate(
    [jsondecode(file("${path.module}/doc.json"))],
    provider::celyaml::render_file("${path.module}/crd.yaml", {}),
  )
}
`, files: map[string]string{"crd.yaml": widgetCRD,
			"doc.json": `{"apiVersion": "example.com/v9", "kind": "Widget", "metadata": {"name": "w"}, "data": "HUNTER2VAR"}`},
			logged: "no schema for kind",
			want:   []string{"example.com/Widget/_/w: no schema for kind Widget in example.com/v9"}},
		{name: "map_literal_repeats_a_computed_key", config: `
output "v" {
  value = provider::celyaml::render("v: {$eval: \"$${{ {a: 1, b: 2} }}\"}", jsondecode(file("${path.module}/ctx.json")))
}
`, files: map[string]string{"ctx.json": `{"a": "HUNTER2VAR", "b": "HUNTER2VAR"}`},
			logged: "the map literal gives the same key twice",
			want:   []string{"the map literal gives the same key twice"}},
		{name: "format_string_from_a_variable", config: `
output "v" {
  value = provider::celyaml::eval("f.format([1])", jsondecode(file("${path.module}/ctx.json")))
}
`, files: map[string]string{"ctx.json": `{"f": "HUNTER2VAR %q"}`},
			logged: "unrecognized formatting clause",
			want:   []string{"unrecognized formatting clause …"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"main.tf": terraformHeader + c.config}
			for k, v := range c.files {
				files[k] = v
			}
			r := tf.plan(t, c.name, files)
			if !r.Failed {
				t.Fatalf("the plan succeeded:\n%s", r.Output)
			}
			flat := strings.Join(strings.Fields(r.Output), " ")
			for _, w := range c.want {
				if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
					t.Errorf("the plan does not say %q:\n%s", w, r.Output)
				}
			}
			// The log carries the provider's errors, so the secret's absence
			// from it means something.
			if !strings.Contains(r.Log, c.logged) {
				t.Errorf("the TF_LOG file does not carry the error %q", c.logged)
			}
			assertNoSecret(t, r)
		})
	}
}
