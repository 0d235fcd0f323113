package engine_test

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// guideRow is one row of a two-column table of a guide: what another tool
// writes, and the CEL-YAML for it.
type guideRow struct {
	line        int
	left, right string
}

// guideTableRows reads every two-column table of a guide template, with
// tfplugindocs' `{{"{{"}}` read as `{{` and Markdown's `\|` as `|`. The
// rows are named by their first cell without its backticks.
func guideTableRows(doc string) []guideRow {
	doc = strings.ReplaceAll(doc, `{{"{{"}}`, "{{")
	var rows []guideRow
	for i, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(line, "| ") || !strings.HasSuffix(line, " |") {
			continue
		}
		cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(line, "| "), " |"), " | ")
		if len(cells) != 2 {
			continue
		}
		for j := range cells {
			cells[j] = strings.ReplaceAll(cells[j], `\|`, "|")
		}
		rows = append(rows, guideRow{line: i + 1, left: cells[0], right: cells[1]})
	}
	return rows
}

var codeSpan = regexp.MustCompile("`([^`]*)`")

// codeSpans lists the `code` spans of a table cell, in order.
func codeSpans(cell string) []string {
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}

// tableRun is one set of variables for a row, and what Helm (or the other
// tool) gives for it: the output, or an error that contains err.
type tableRun struct {
	vars, want, err string
}

// tableCase renders a row's CEL-YAML. In tmpl, {0}, {1}, … stand for the
// code spans of the row's CEL-YAML cell, so the test renders what the
// guide shows, not a copy of it.
type tableCase struct {
	tmpl string
	runs []tableRun
}

// The absent-key runs expect `no such key`: the guide's rows read a value
// that is set unless they say otherwise, and the text under the Helm table
// says so.
var migratingTableCases = map[string]tableCase{
	// Helm
	`{{ .Values.image }}`: {"{0}\n", []tableRun{
		{vars: `{"values": {"image": ""}}`, want: "image: \"\"\n"},
		{vars: `{"values": {"image": 0}}`, want: "image: 0\n"},
		{vars: `{"values": {}}`, err: "no such key 'image'"},
	}},
	`{{ .Values.name }}-{{ .Values.env }}`: {"name: {0}\n", []tableRun{
		{vars: `{"values": {"name": "cart", "env": ""}}`, want: "name: cart-\n"},
		{vars: `{"values": {"name": "cart", "env": 0}}`, want: "name: cart-0\n"},
		{vars: `{"values": {"name": "cart"}}`, err: "no such key 'env'"},
	}},
	// Helm's default replaces nil, "", 0 and false.
	`{{ .Values.tag | default "latest" }}`: {`tag: {$eval: "{0}"}` + "\n", []tableRun{
		{vars: `{"values": {}}`, want: "tag: latest\n"},
		{vars: `{"values": {"tag": null}}`, want: "tag: latest\n"},
		{vars: `{"values": {"tag": ""}}`, want: "tag: latest\n"},
		{vars: `{"values": {"tag": 0}}`, want: "tag: latest\n"},
		{vars: `{"values": {"tag": false}}`, want: "tag: latest\n"},
		{vars: `{"values": {"tag": "1.27"}}`, want: "tag: \"1.27\"\n"},
	}},
	// Helm's required fails on nil and "", and lets 0 and false through.
	`{{ required "set image" .Values.image }}`: {"{0}\n{1}\nok: true\n", []tableRun{
		{vars: `{"values": {}}`, err: "set image"},
		{vars: `{"values": {"image": null}}`, err: "set image"},
		{vars: `{"values": {"image": ""}}`, err: "set image"},
		{vars: `{"values": {"image": 0}}`, want: "ok: true\n"},
		{vars: `{"values": {"image": "nginx"}}`, want: "ok: true\n"},
	}},
	// toYaml of {} is {}, and of nil is null.
	`{{ toYaml .Values.resources | nindent 12 }}`: {"{0}\n", []tableRun{
		{vars: `{"values": {"resources": {}}}`, want: "resources: {}\n"},
		{vars: `{"values": {"resources": null}}`, want: "resources: null\n"},
		{vars: `{"values": {}}`, err: "no such key 'resources'"},
	}},
	// quote gives text, also for a number.
	`{{ .Values.name | quote }}`: {"name: {$eval: \"${{ values.name }}\"}\nport: {$eval: \"{2}\"}\n", []tableRun{
		{vars: `{"values": {"name": "", "port": 0}}`, want: "name: \"\"\nport: \"0\"\n"},
		{vars: `{"values": {"name": "on", "port": 8080}}`, want: "name: \"on\"\nport: \"8080\"\n"},
	}},
	`{{ if .Values.debug }}…{{ end }}`: {"{0}\n", []tableRun{
		{vars: `{"values": {}}`, want: "{}\n"},
		{vars: `{"values": {"debug": null}}`, want: "{}\n"},
		{vars: `{"values": {"debug": false}}`, want: "{}\n"},
		{vars: `{"values": {"debug": true}}`, want: "args:\n  - --verbose\n"},
	}},
	// Helm's if is false for nil, "", 0 and false.
	`{{ if .Values.host }}…{{ end }} (text or a number)`: {"host:\n  {0}\n  {1} {$eval: \"${{ values.host }}\"}\n", []tableRun{
		{vars: `{"values": {}}`, want: "{}\n"},
		{vars: `{"values": {"host": null}}`, want: "{}\n"},
		{vars: `{"values": {"host": ""}}`, want: "{}\n"},
		{vars: `{"values": {"host": 0}}`, want: "{}\n"},
		{vars: `{"values": {"host": false}}`, want: "{}\n"},
		{vars: `{"values": {"host": "cart.example.com"}}`, want: "host: cart.example.com\n"},
	}},
	// Helm writes `ports:` (null) for an empty list, which Kubernetes
	// reads as an empty list.
	`{{ range .Values.ports }}…{{ end }}`: {"ports:\n  {0}\n    {1} {$eval: \"${{ p }}\"}\n", []tableRun{
		{vars: `{"values": {"ports": []}}`, want: "ports: []\n"},
		{vars: `{"values": {"ports": [0, 80]}}`, want: "ports:\n  - 0\n  - 80\n"},
		{vars: `{"values": {}}`, err: "no such key 'ports'"},
	}},
	`{{ range $k, $v := .Values.env }}`: {"env:\n  {0}\n    $do: {name: {$eval: \"${{ k }}\"}, value: {$eval: \"${{ v }}\"}}\n", []tableRun{
		{vars: `{"values": {"env": {}}}`, want: "env: []\n"},
		{vars: `{"values": {"env": {"B": "", "A": "0"}}}`, want: "env:\n  - name: A\n    value: \"0\"\n  - name: B\n    value: \"\"\n"},
	}},
	// Helm's with leaves its block out for nil, "", 0, false and an empty
	// map or list.
	`{{ with .Values.priorityClassName }} (text or a number)`: {"{0}\n", []tableRun{
		{vars: `{"values": {}}`, want: "{}\n"},
		{vars: `{"values": {"priorityClassName": null}}`, want: "{}\n"},
		{vars: `{"values": {"priorityClassName": ""}}`, want: "{}\n"},
		{vars: `{"values": {"priorityClassName": 0}}`, want: "{}\n"},
		{vars: `{"values": {"priorityClassName": false}}`, want: "{}\n"},
		{vars: `{"values": {"priorityClassName": "high"}}`, want: "priorityClassName: high\n"},
	}},
	`{{ with .Values.nodeSelector }} (a map or a list)`: {"{0}\n", []tableRun{
		{vars: `{"values": {}}`, want: "{}\n"},
		{vars: `{"values": {"nodeSelector": null}}`, want: "{}\n"},
		{vars: `{"values": {"nodeSelector": {}}}`, want: "{}\n"},
		{vars: `{"values": {"nodeSelector": []}}`, want: "{}\n"},
		{vars: `{"values": {"nodeSelector": {"disk": "ssd"}}}`, want: "nodeSelector:\n  disk: ssd\n"},
	}},
	`{{ .Values.name | upper }}`: {`name: {$eval: "{0}"}` + "\n", []tableRun{
		{vars: `{"values": {"name": ""}}`, want: "name: \"\"\n"},
		{vars: `{"values": {"name": "cart"}}`, want: "name: CART\n"},
	}},
	`{{ .Values.name | trunc 10 }}`: {`name: {$eval: "{0}"}` + "\n", []tableRun{
		{vars: `{"values": {"name": ""}}`, want: "name: \"\"\n"},
		{vars: `{"values": {"name": "shopping-cart"}}`, want: "name: shopping-c\n"},
	}},
	`{{ join "," .Values.args }}`: {`args: {$eval: "{0}"}` + "\n", []tableRun{
		{vars: `{"values": {"args": []}}`, want: "args: \"\"\n"},
		{vars: `{"values": {"args": ["a", ""]}}`, want: "args: a,\n"},
	}},
	`{{ b64enc .Values.token }}`: {`token: {$eval: "{0}"}` + "\n", []tableRun{
		{vars: `{"values": {"token": ""}}`, want: "token: \"\"\n"},
	}},
	`{{ .Values.a | toJson }}`: {`a: {$eval: "{0}"}` + "\n", []tableRun{
		{vars: `{"values": {"a": {}}}`, want: "a: '{}'\n"},
		{vars: `{"values": {"a": null}}`, want: "a: \"null\"\n"},
		{vars: `{"values": {"a": 0}}`, want: "a: \"0\"\n"},
		{vars: `{"values": {"a": ""}}`, want: "a: '\"\"'\n"},
	}},

	// templatefile()
	`${name}`: {"name: {0}\n", []tableRun{
		{vars: `{"name": ""}`, want: "name: \"\"\n"},
		{vars: `{"name": 0}`, want: "name: 0\n"},
	}},
	`%{ if ha }…%{ endif }`: {"replicas:\n  {0}\n  {1} 3\n  {2} 1\n", []tableRun{
		{vars: `{"ha": false}`, want: "replicas: 1\n"},
		{vars: `{"ha": true}`, want: "replicas: 3\n"},
		// HCL refuses a null condition too.
		{vars: `{"ha": null}`, err: "must be a bool"},
	}},
	`%{ for x in xs }…%{ endfor }`: {"items:\n  {0}\n    {1} {$eval: \"${{ x }}\"}\n", []tableRun{
		{vars: `{"xs": []}`, want: "items: []\n"},
		{vars: `{"xs": [""]}`, want: "items:\n  - \"\"\n"},
	}},
	`${yamlencode(obj)} inside the text`: {"{0}\n", []tableRun{
		{vars: `{"obj": {}}`, want: "key: {}\n"},
		{vars: `{"obj": null}`, want: "key: null\n"},
	}},
	`${jsonencode(obj)}`: {`j: {$eval: "{0}"}` + "\n", []tableRun{
		{vars: `{"obj": {}}`, want: "j: '{}'\n"},
		{vars: `{"obj": null}`, want: "j: \"null\"\n"},
	}},

	// ytt
	`#@ data.values.replicas`: {"replicas: {0}\n", []tableRun{
		{vars: `{"replicas": 0}`, want: "replicas: 0\n"},
	}},
	`#@ if env == "prod": … #@ end`: {"replicas:\n  {0}\n  {1} 3\n", []tableRun{
		{vars: `{"env": ""}`, want: "{}\n"},
		{vars: `{"env": "prod"}`, want: "replicas: 3\n"},
	}},
	`#@ for svc in data.values.services:`: {"services:\n  {0}\n    {1} {$eval: \"${{ svc }}\"}\n", []tableRun{
		{vars: `{"services": []}`, want: "services: []\n"},
	}},
	// ytt and kustomize overlays: the overlay rows render against a
	// Deployment and a Service, as ytt and kustomize would patch them.
	`#@overlay/match by=overlay.subset({"kind": "Deployment"})`: {overlayStream + "---\n{0}\nx: 1\n", []tableRun{
		{vars: `{}`, want: "kind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  containers:\n    - name: app\n    - name: legacy\nx: 1\n---\nkind: Service\nmetadata:\n  name: web\n"},
	}},
	`#@overlay/match missing_ok=True`: {overlayStream + "---\n$overlay: doc.kind == 'Job'\n{0}\nx: 1\n", []tableRun{
		{vars: `{}`, want: overlayStreamOut},
	}},
	`#@overlay/match by="name" on a list item`: {overlayStream + "---\n$overlay: doc.kind == 'Deployment'\nspec:\n  containers:\n    {0}\n      image: app:2\n", []tableRun{
		{vars: `{}`, want: "kind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  containers:\n    - name: app\n      image: app:2\n    - name: legacy\n---\nkind: Service\nmetadata:\n  name: web\n"},
	}},
	`#@overlay/remove on a list item`: {overlayStream + "---\n$overlay: doc.kind == 'Deployment'\nspec:\n  containers:\n    {0}\n", []tableRun{
		{vars: `{}`, want: "kind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  containers:\n    - name: app\n---\nkind: Service\nmetadata:\n  name: web\n"},
	}},
	`patches: with a strategic merge patch`: {overlayStream + "---\n{1}\nspec:\n  replicas: 2\n", []tableRun{
		{vars: `{}`, want: "kind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  containers:\n    - name: app\n    - name: legacy\n  replicas: 2\n---\nkind: Service\nmetadata:\n  name: web\n"},
	}},
	// kustomize's transformers and Helm's -n: the $transform rows render
	// against Kubernetes objects, since a transform reads apiVersion and
	// kind (internal/kustomize holds them to kustomize build itself).
	`namespace: apps`: {transformStream + "---\n{0}\n", []tableRun{
		{vars: `{}`, want: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: apps\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: web\n---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  namespace: apps\n"},
	}},
	`labels: with pairs: (metadata only)`: {transformStream + "---\n{0}\n", []tableRun{
		{vars: `{}`, want: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n  labels:\n    team: platform\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: web\n  labels:\n    team: platform\n---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  namespace: shop\n  labels:\n    team: platform\n"},
	}},
	`commonLabels: (or labels: with includeSelectors: true)`: {transformStream + "---\n{0}\n", []tableRun{
		{vars: `{}`, want: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n  labels:\n    tier: web\nspec:\n  selector:\n    matchLabels:\n      app: web\n      tier: web\n  template:\n    metadata:\n      labels:\n        app: web\n        tier: web\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: web\n  labels:\n    tier: web\n---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  namespace: shop\n  labels:\n    tier: web\nspec:\n  template:\n    metadata:\n      labels:\n        tier: web\n"},
	}},
	`commonAnnotations:`: {transformStream + "---\n{0}\n", []tableRun{
		{vars: `{}`, want: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n  annotations:\n    owner: platform\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n      annotations:\n        owner: platform\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: web\n  annotations:\n    owner: platform\n---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  namespace: shop\n  annotations:\n    owner: platform\nspec:\n  template:\n    metadata:\n      annotations:\n        owner: platform\n"},
	}},
	`images: with newName, newTag or digest`: {transformStream + "---\n{0}\n", []tableRun{
		{vars: `{}`, want: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: web\n---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  namespace: shop\n"},
	}},
	`patches: with $patch: delete on a whole object`: {transformStream + "---\n{0}\n{1}\n", []tableRun{
		{vars: `{}`, want: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: web\n"},
	}},
	`helm template -n apps (or --namespace)`: {transformStream + "---\n{1}\n", []tableRun{
		{vars: `{"target_namespace": "apps"}`, want: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: apps\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: web\n---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  namespace: apps\n"},
		{vars: `{}`, err: "undeclared reference to 'target_namespace'"},
	}},
}

// overlayStream is what the overlay rows of the guide's tables patch, and
// overlayStreamOut how it renders unpatched.
const (
	overlayStream    = "kind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  containers:\n    - name: app\n    - name: legacy\n---\nkind: Service\nmetadata:\n  name: web\n"
	overlayStreamOut = overlayStream
)

// transformStream is what the $transform rows change: a Deployment and a
// Job in a namespace, and a ClusterRole.
const transformStream = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n" +
	"---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: web\n" +
	"---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  namespace: shop\n"

// Rows whose CEL-YAML reads no value that could be empty, zero or absent.
var migratingTableExempt = map[string]string{
	`{{ include "app.labels" . }}`:                        "names a file, not a value",
	`{{ sha256sum (toYaml .Values.config) }}`:             "a checksum that only has to change with the config; toYaml and yaml.encode lay out text differently, so the hashes never match Helm's",
	`values.schema.json`:                                  "a schema, not an expression",
	`lookup, tpl, hooks, releases`:                        "no CEL-YAML form",
	`yamldecode(templatefile(...)) to get values`:         "no expression",
	`#@ def labels(name): and #@ labels("cart")`:          "names a file, not a value",
	`#@data/values-schema`:                                "a schema, not an expression",
	`#@ assert.fail("...")`:                               "no expression",
	`helm template -f values.yaml -f values-prod.yaml`:    "a Terraform function, tested by the provider's deep_merge tests",
	`ytt -f values.yml -f values-prod.yml (data values)`:  "a Terraform function, tested by the provider's deep_merge tests",
	`a post-renderer (--post-renderer)`:                   "names a directive, shown by the overlay rows below",
	`#@overlay/append`:                                    "no expression: shown by the `$append` golden cases",
	`$patch: delete on a key, or a JSON patch op: remove`: "no expression: a null in a patch, shown by overlay_null_deletes_a_key",
	`a JSON patch op: add with path: /spec/containers/-`:  "no expression: shown by the `$append` golden cases",
}

// Every row of the migration guide's tables gives, for empty, zero, null
// and absent values, what the tool it translates gives (or the error the
// guide says a missing key gives).
func TestGuide_migratingTableRowsKeepTheToolsSemantics(t *testing.T) {
	doc, err := os.ReadFile(migratingGuide)
	if err != nil {
		t.Fatal(err)
	}
	rows := guideTableRows(string(doc))
	if len(rows) < 30 {
		t.Fatalf("found %d table rows in the guide, want at least 30", len(rows))
	}
	e := engine.New(engine.DefaultOptions())
	seen := map[string]bool{}
	for _, row := range rows {
		if row.right == "CEL-YAML" { // a header
			continue
		}
		left := strings.ReplaceAll(row.left, "`", "")
		if _, ok := migratingTableExempt[left]; ok {
			seen[left] = true
			continue
		}
		c, ok := migratingTableCases[left]
		if !ok {
			t.Errorf("line %d: row %q has no case in this test: add one that renders it with empty, zero and absent values", row.line, left)
			continue
		}
		seen[left] = true
		spans := codeSpans(row.right)
		tmpl := c.tmpl
		for i, s := range spans {
			tmpl = strings.ReplaceAll(tmpl, "{"+string(rune('0'+i))+"}", s)
		}
		for _, run := range c.runs {
			vars, err := decodeVars([]byte(run.vars))
			if err != nil {
				t.Fatalf("%s: %s: %v", left, run.vars, err)
			}
			docs, err := e.Render(context.Background(), engine.Source{Text: []byte(tmpl)}, vars)
			if run.err != "" {
				if err == nil || !strings.Contains(err.Error(), run.err) {
					t.Errorf("line %d: %s with %s: got error %v, want one containing %q\ntemplate:\n%s", row.line, left, run.vars, err, run.err, tmpl)
				}
				continue
			}
			if err != nil {
				t.Errorf("line %d: %s with %s: %v\ntemplate:\n%s", row.line, left, run.vars, err, tmpl)
				continue
			}
			got, err := engine.EncodeYAMLStream(docs)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != run.want {
				t.Errorf("line %d: %s with %s:\n got: %q\nwant: %q (what the tool gives)\ntemplate:\n%s", row.line, left, run.vars, got, run.want, tmpl)
			}
		}
	}
	for left := range migratingTableCases {
		if !seen[left] {
			t.Errorf("case %q matches no row of the guide's tables", left)
		}
	}
	for left := range migratingTableExempt {
		if !seen[left] {
			t.Errorf("exempt row %q matches no row of the guide's tables", left)
		}
	}
}

// The guide's worked example for Helm's `with` leaves a key out for every
// empty, zero, null and absent value, as `with` does, and writes it
// otherwise.
func TestGuide_migratingWithExampleDropsEmptyValues(t *testing.T) {
	doc, err := os.ReadFile(migratingGuide)
	if err != nil {
		t.Fatal(err)
	}
	const heading = "### Leaving out empty values, as `with` does\n"
	_, section, ok := strings.Cut(string(doc), heading)
	if !ok {
		t.Fatalf("the guide has no section %q", heading)
	}
	for _, next := range []string{"\n## ", "\n### "} {
		if i := strings.Index(section, next); i >= 0 {
			section = section[:i]
		}
	}
	examples := guideRenders(section)
	if len(examples) != 1 {
		t.Fatalf("found %d worked examples in the section, want 1", len(examples))
	}
	tmpl := examples[0].template
	for _, want := range []string{"optional.ofNonZeroValue(", "$if:"} {
		if !strings.Contains(tmpl, want) {
			t.Errorf("the worked example does not use %q", want)
		}
	}
	e := engine.New(engine.DefaultOptions())
	for _, run := range []tableRun{
		{vars: `{"values": {}}`, want: "spec: {}\n"},
		{vars: `{"values": {"priorityClassName": null, "securityContext": null, "nodeSelector": null}}`, want: "spec: {}\n"},
		{vars: `{"values": {"priorityClassName": "", "securityContext": {}, "nodeSelector": {}}}`, want: "spec: {}\n"},
		{vars: `{"values": {"priorityClassName": "", "securityContext": {"runAsNonRoot": true}}}`, want: examples[0].output},
		{vars: `{"values": {"priorityClassName": null, "securityContext": {"runAsNonRoot": true}, "nodeSelector": null}}`, want: examples[0].output},
		{vars: `{"values": {"priorityClassName": "high", "securityContext": {"runAsNonRoot": true}, "nodeSelector": {"disk": "ssd"}}}`,
			want: "spec:\n  priorityClassName: high\n  securityContext:\n    runAsNonRoot: true\n  nodeSelector:\n    disk: ssd\n"},
	} {
		vars, err := decodeVars([]byte(run.vars))
		if err != nil {
			t.Fatal(err)
		}
		docs, err := e.Render(context.Background(), engine.Source{Text: []byte(tmpl)}, vars)
		if err != nil {
			t.Errorf("%s: %v", run.vars, err)
			continue
		}
		got, err := engine.EncodeYAMLStream(docs)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != run.want {
			t.Errorf("%s:\n got: %q\nwant: %q", run.vars, got, run.want)
		}
	}
}
