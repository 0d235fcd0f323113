//go:build kubernetesmanifest

package kubernetesmanifest

// A scenario is one template and the inputs it reads. Every scenario runs
// in four variants: its inputs typed as Terraform types them (`_t`) or
// passed through jsondecode (`_j`, an unknown of dynamic type), and the
// template with its $schema (`_s`) or without (`_n`). In the text of the
// template and its files, @NS@ is the namespace, @NAME@ the variant's name
// (leaf-t-s) and the line @SCHEMA@ the $schema of the variant, or nothing.
type scenario struct {
	name   string // base name: the variant's is name-t-s, name-j-n, ...
	family string
	// template is the template; files are more files beside it (an
	// upstream bundle it includes).
	template string
	files    map[string]string
	// schema is the body of $schema (variable: schema lines), indented
	// where @SCHEMA@ stands.
	schema string
	inputs []input
	// context is the HCL object passed as the render's context, where
	// IN_name stands for the input `name`: terraform_data.X.output (typed)
	// or jsondecode(terraform_data.X.output).
	context string
	// call wraps the render, RENDER, into what manifests() receives;
	// empty is RENDER itself.
	call string
	// docs are the manifest IDs the template gives; changed those that the
	// second round's inputs update in place (the others must not change).
	docs    []string
	changed []string
	// checks are fields of the live objects, as the server holds them,
	// after each round.
	checks []check
	// twin, when set, makes this no template but its hand-written HCL
	// twin: the manifest of one kubernetes_manifest, IN_name standing for
	// the input `name` as Terraform types it. Twins run once (typed, no
	// $schema) and show what kubernetes_manifest itself accepts.
	twin string
}

// input is a value known only after apply: a terraform_data whose input is
// a variable of type tfType, round1 on the first apply and round2 after.
type input struct {
	name           string
	tfType         string
	round1, round2 any
}

// check: the field at path (a.b[0].c) of the live object id holds round1
// after the first apply and round2 after the second (JSON texts).
type check struct {
	id, path       string
	round1, round2 string
}

// cannotPlan lists the scenarios whose first plan fails, in every variant
// and under both CLIs, and the error they must fail with (a regular
// expression); every other scenario must pass every step. The
// unknown-values guide lists them with what the user sees.
//
//   - if-doc: a document-root $if whose condition is unknown leaves the
//     number of documents unknown, so manifests() is unknown as a whole
//     and for_each cannot know its keys; no typing can fix that.
//   - twin-*: not templates but the same shapes written by hand in HCL,
//     which kubernetes_manifest itself refuses: an unknown list(string)
//     inside a list (a container's args), a container or its args decided
//     by a condition, an unknown number where the kind has an
//     int-or-string. The templates of those shapes (list-args,
//     list-args-for, if-field-container, if-list-container, port-number)
//     plan, because the functions return such an unknown as the whole
//     outermost list around it, of dynamic type, which kubernetes_manifest
//     accepts.
var cannotPlan = map[string]string{
	"if-doc":                  "Invalid for_each argument",
	"twin-list-args":          "Failed to extract value of List attribute",
	"twin-if-field-container": "can't use tftypes.DynamicPseudoType as tftypes.Object",
	"twin-if-list-container":  "Failed to extract value of List attribute",
	"twin-port-number":        "Invalid Number value",
}

// fixedConfigMap is a document that reads no input: the second round must
// leave it alone. Only the typed variant with $schema keeps it (the other
// variants' objects are what else must not change), so that the matrix
// applies a third fewer objects.
const fixedConfigMap = `
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: @NAME@-fixed
  namespace: @NS@
data:
  fixed: "yes"
`

const deploymentHead = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: @NAME@
  namespace: @NS@
spec:
  selector:
    matchLabels: {app: @NAME@}
  template:
    metadata:
      labels: {app: @NAME@}
    spec:
`

// serviceHead is a Service up to its one port's targetPort, an
// int-or-string inside the list ports.
const serviceHead = `apiVersion: v1
kind: Service
metadata:
  name: @NAME@
  namespace: @NS@
spec:
  selector: {app: @NAME@}
  ports:
    - port: 80
`

// podDNS opens the pod's dnsConfig: its nameservers are a list of
// strings outside any list.
const podDNS = "      containers:\n        - name: app\n          image: registry.example/app:1\n      dnsConfig:\n"

var scenarios = []scenario{
	{
		name:   "leaf",
		family: "leaves",
		template: "@SCHEMA@\n" + `apiVersion: apps/v1
kind: Deployment
metadata:
  name: @NAME@
  namespace: @NS@
spec:
  replicas:
    $eval: "${{ replicas }}"
  selector:
    matchLabels: {app: @NAME@}
  template:
    metadata:
      labels: {app: @NAME@}
    spec:
      enableServiceLinks:
        $eval: "${{ links }}"
      containers:
        - name: app
          image:
            $eval: "${{ image }}"
` + fixedConfigMap,
		schema: "image: {type: string}\nreplicas: {type: integer}\nlinks: {type: boolean}",
		inputs: []input{
			{"image", "string", "registry.example/app:1", "registry.example/app:2"},
			{"replicas", "number", 1, 2},
			{"links", "bool", false, true},
		},
		context: "{ image = IN_image, replicas = IN_replicas, links = IN_links }",
		docs:    []string{"apps/Deployment/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed: []string{"apps/Deployment/@NS@/@NAME@"},
		checks: []check{
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.containers[0].image", `"registry.example/app:1"`, `"registry.example/app:2"`},
			{"apps/Deployment/@NS@/@NAME@", "spec.replicas", `1`, `2`},
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.enableServiceLinks", `false`, `true`},
			{"_/ConfigMap/@NS@/@NAME@-fixed", "data.fixed", `"yes"`, `"yes"`},
		},
	},
	{
		name:     "list-bare",
		family:   "lists",
		template: "@SCHEMA@\n" + deploymentHead + podDNS + "        nameservers:\n          $eval: \"${{ servers }}\"\n" + fixedConfigMap,
		schema:   "servers: {type: array, items: {type: string}}",
		inputs:   []input{{"servers", "list(string)", []string{"10.0.0.1"}, []string{"10.0.0.2", "10.0.0.3"}}},
		context:  "{ servers = IN_servers }",
		docs:     []string{"apps/Deployment/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed:  []string{"apps/Deployment/@NS@/@NAME@"},
		checks: []check{
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.dnsConfig.nameservers", `["10.0.0.1"]`, `["10.0.0.2","10.0.0.3"]`},
		},
	},
	{
		name:     "list-for",
		family:   "lists",
		template: "@SCHEMA@\n" + deploymentHead + podDNS + "        nameservers:\n          - $for: s in servers\n            $do:\n              $eval: \"10.0.0.${{ s }}\"\n" + fixedConfigMap,
		schema:   "servers: {type: array, items: {type: string}}",
		inputs:   []input{{"servers", "list(string)", []string{"1"}, []string{"2", "3"}}},
		context:  "{ servers = IN_servers }",
		docs:     []string{"apps/Deployment/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed:  []string{"apps/Deployment/@NS@/@NAME@"},
		checks: []check{
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.dnsConfig.nameservers", `["10.0.0.1"]`, `["10.0.0.2","10.0.0.3"]`},
		},
	},
	{
		name:     "list-in-object",
		family:   "lists",
		template: "@SCHEMA@\n" + deploymentHead + podDNS + "        nameservers:\n          $eval: \"${{ dns.servers }}\"\n        searches:\n          - $eval: \"${{ dns.domain }}\"\n" + fixedConfigMap,
		schema:   "dns:\n  type: object\n  properties:\n    servers: {type: array, items: {type: string}}\n    domain: {type: string}",
		inputs:   []input{{"servers", "list(string)", []string{"10.0.0.1"}, []string{"10.0.0.2"}}},
		context:  `{ dns = { servers = IN_servers, domain = "shop.internal" } }`,
		docs:     []string{"apps/Deployment/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed:  []string{"apps/Deployment/@NS@/@NAME@"},
		checks: []check{
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.dnsConfig.nameservers", `["10.0.0.1"]`, `["10.0.0.2"]`},
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.dnsConfig.searches", `["shop.internal"]`, `["shop.internal"]`},
		},
	},
	{
		name:     "list-args",
		family:   "lists",
		template: "@SCHEMA@\n" + deploymentHead + "      containers:\n        - name: app\n          image: registry.example/app:1\n          args:\n            $eval: \"${{ args }}\"\n" + fixedConfigMap,
		schema:   "args: {type: array, items: {type: string}}",
		inputs:   []input{{"args", "list(string)", []string{"--level=1"}, []string{"--level=2", "--verbose"}}},
		context:  "{ args = IN_args }",
		docs:     []string{"apps/Deployment/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed:  []string{"apps/Deployment/@NS@/@NAME@"},
		checks: []check{
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.containers[0].args", `["--level=1"]`, `["--level=2","--verbose"]`},
		},
	},
	{
		name:     "list-args-for",
		family:   "lists",
		template: "@SCHEMA@\n" + deploymentHead + "      containers:\n        - name: app\n          image: registry.example/app:1\n          args:\n            - $for: a in args\n              $do:\n                $eval: \"--${{ a }}\"\n" + fixedConfigMap,
		schema:   "args: {type: array, items: {type: string}}",
		inputs:   []input{{"args", "list(string)", []string{"one"}, []string{"two", "three"}}},
		context:  "{ args = IN_args }",
		docs:     []string{"apps/Deployment/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed:  []string{"apps/Deployment/@NS@/@NAME@"},
		checks: []check{
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.containers[0].args", `["--one"]`, `["--two","--three"]`},
		},
	},
	{
		name:   "twin-list-args",
		family: "lists",
		twin: `{
    apiVersion = "apps/v1"
    kind       = "Deployment"
    metadata   = { name = "@NAME@", namespace = "@NS@" }
    spec = {
      selector = { matchLabels = { app = "@NAME@" } }
      template = {
        metadata = { labels = { app = "@NAME@" } }
        spec     = { containers = [{ name = "app", image = "registry.example/app:1", args = IN_args }] }
      }
    }
  }`,
		inputs: []input{{"args", "list(string)", []string{"--level=1"}, []string{"--level=2"}}},
	},
	{
		name:   "map-bare",
		family: "maps",
		template: "@SCHEMA@\n" + `apiVersion: v1
kind: ConfigMap
metadata:
  name: @NAME@
  namespace: @NS@
data:
  $eval: "${{ data }}"
` + fixedConfigMap,
		schema:  "data: {type: object, additionalProperties: {type: string}}",
		inputs:  []input{{"data", "map(string)", map[string]string{"a": "1"}, map[string]string{"a": "2", "b": "3"}}},
		context: "{ data = IN_data }",
		docs:    []string{"_/ConfigMap/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed: []string{"_/ConfigMap/@NS@/@NAME@"},
		checks: []check{
			{"_/ConfigMap/@NS@/@NAME@", "data", `{"a":"1"}`, `{"a":"2","b":"3"}`},
		},
	},
	{
		name:   "map-merged",
		family: "maps",
		template: "@SCHEMA@\n" + `apiVersion: v1
kind: ConfigMap
metadata:
  name: @NAME@
  namespace: @NS@
  labels:
    app: web
    $eval: "${{ labels }}"
data:
  fixed: "yes"
` + fixedConfigMap,
		schema:  "labels: {type: object, additionalProperties: {type: string}}",
		inputs:  []input{{"labels", "map(string)", map[string]string{"tier": "one"}, map[string]string{"tier": "two", "team": "shop"}}},
		context: "{ labels = IN_labels }",
		docs:    []string{"_/ConfigMap/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed: []string{"_/ConfigMap/@NS@/@NAME@"},
		checks: []check{
			{"_/ConfigMap/@NS@/@NAME@", "metadata.labels", `{"app":"web","tier":"one"}`, `{"app":"web","team":"shop","tier":"two"}`},
		},
	},
	{
		name:   "map-for-key",
		family: "maps",
		template: "@SCHEMA@\n" + `apiVersion: v1
kind: ConfigMap
metadata:
  name: @NAME@
  namespace: @NS@
data:
  $for: k, v in data
  $do:
    $key:
      $eval: "key-${{ k }}"
    $value:
      $eval: "value-${{ v }}"
` + fixedConfigMap,
		schema:  "data: {type: object, additionalProperties: {type: string}}",
		inputs:  []input{{"data", "map(string)", map[string]string{"a": "1"}, map[string]string{"a": "2", "b": "3"}}},
		context: "{ data = IN_data }",
		docs:    []string{"_/ConfigMap/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed: []string{"_/ConfigMap/@NS@/@NAME@"},
		checks: []check{
			{"_/ConfigMap/@NS@/@NAME@", "data", `{"key-a":"value-1"}`, `{"key-a":"value-2","key-b":"value-3"}`},
		},
	},
	{
		name:     "port-string",
		family:   "int-or-string",
		template: "@SCHEMA@\n" + serviceHead + "      targetPort:\n        $eval: \"${{ string(port) }}\"\n" + fixedConfigMap,
		schema:   "port: {type: integer}",
		inputs:   []input{{"port", "number", 8080, 8081}},
		context:  "{ port = IN_port }",
		docs:     []string{"_/Service/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed:  []string{"_/Service/@NS@/@NAME@"},
		checks: []check{
			{"_/Service/@NS@/@NAME@", "spec.ports[0].targetPort", `8080`, `8081`},
		},
	},
	{
		name:     "port-number",
		family:   "int-or-string",
		template: "@SCHEMA@\n" + serviceHead + "      targetPort:\n        $eval: \"${{ port }}\"\n" + fixedConfigMap,
		schema:   "port: {type: integer}",
		inputs:   []input{{"port", "number", 8080, 8081}},
		context:  "{ port = IN_port }",
		docs:     []string{"_/Service/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed:  []string{"_/Service/@NS@/@NAME@"},
		checks: []check{
			{"_/Service/@NS@/@NAME@", "spec.ports[0].targetPort", `8080`, `8081`},
		},
	},
	{
		name:   "twin-port-number",
		family: "int-or-string",
		twin: `{
    apiVersion = "v1"
    kind       = "Service"
    metadata   = { name = "@NAME@", namespace = "@NS@" }
    spec       = { selector = { app = "@NAME@" }, ports = [{ port = 80, targetPort = IN_port }] }
  }`,
		inputs: []input{{"port", "number", 8080, 8081}},
	},
	{
		name:   "values-object",
		family: "values object",
		template: "@SCHEMA@\n" + `apiVersion: apps/v1
kind: Deployment
metadata:
  name: @NAME@
  namespace: @NS@
spec:
  replicas:
    $eval: "${{ values.replicas }}"
  selector:
    matchLabels: {app: @NAME@}
  template:
    metadata:
      labels: {app: @NAME@}
    spec:
      containers:
        - name: app
          image:
            $eval: "${{ values.image }}"
` + fixedConfigMap,
		schema: "values:\n  type: object\n  properties:\n    image: {type: string}\n    replicas: {type: integer}",
		inputs: []input{{"values", "object({image = string, replicas = number})",
			map[string]any{"image": "registry.example/app:1", "replicas": 1},
			map[string]any{"image": "registry.example/app:2", "replicas": 3}}},
		context: "{ values = IN_values }",
		docs:    []string{"apps/Deployment/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed: []string{"apps/Deployment/@NS@/@NAME@"},
		checks: []check{
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.containers[0].image", `"registry.example/app:1"`, `"registry.example/app:2"`},
			{"apps/Deployment/@NS@/@NAME@", "spec.replicas", `1`, `3`},
		},
	},
	{
		name:     "if-leaf",
		family:   "$if",
		template: "@SCHEMA@\n" + deploymentHead + "      containers:\n        - name: app\n          image: registry.example/app:1\n          imagePullPolicy:\n            $if: flag\n            $then: Always\n            $else: Never\n" + fixedConfigMap,
		schema:   "flag: {type: boolean}",
		inputs:   []input{{"flag", "bool", false, true}},
		context:  "{ flag = IN_flag }",
		docs:     []string{"apps/Deployment/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed:  []string{"apps/Deployment/@NS@/@NAME@"},
		checks: []check{
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.containers[0].imagePullPolicy", `"Never"`, `"Always"`},
		},
	},
	{
		name:     "if-field",
		family:   "$if",
		template: "@SCHEMA@\n" + deploymentHead + "      containers:\n        - name: app\n          image: registry.example/app:1\n      $if: flag\n      $then:\n        hostname: web\n" + fixedConfigMap,
		schema:   "flag: {type: boolean}",
		inputs:   []input{{"flag", "bool", false, true}},
		context:  "{ flag = IN_flag }",
		docs:     []string{"apps/Deployment/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed:  []string{"apps/Deployment/@NS@/@NAME@"},
		checks: []check{
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.hostname", `null`, `"web"`},
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.containers[0].image", `"registry.example/app:1"`, `"registry.example/app:1"`},
		},
	},
	{
		name:     "if-list",
		family:   "$if",
		template: "@SCHEMA@\n" + deploymentHead + podDNS + "        nameservers:\n          $if: flag\n          $then: [10.0.0.1, 10.0.0.2]\n          $else: [10.0.0.3]\n" + fixedConfigMap,
		schema:   "flag: {type: boolean}",
		inputs:   []input{{"flag", "bool", false, true}},
		context:  "{ flag = IN_flag }",
		docs:     []string{"apps/Deployment/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed:  []string{"apps/Deployment/@NS@/@NAME@"},
		checks: []check{
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.dnsConfig.nameservers", `["10.0.0.3"]`, `["10.0.0.1","10.0.0.2"]`},
		},
	},
	{
		name:     "if-field-container",
		family:   "$if",
		template: "@SCHEMA@\n" + deploymentHead + "      containers:\n        - name: app\n          image: registry.example/app:1\n          $if: flag\n          $then:\n            workingDir: /srv\n" + fixedConfigMap,
		schema:   "flag: {type: boolean}",
		inputs:   []input{{"flag", "bool", false, true}},
		context:  "{ flag = IN_flag }",
		docs:     []string{"apps/Deployment/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed:  []string{"apps/Deployment/@NS@/@NAME@"},
		checks: []check{
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.containers[0].workingDir", `null`, `"/srv"`},
		},
	},
	{
		name:     "if-list-container",
		family:   "$if",
		template: "@SCHEMA@\n" + deploymentHead + "      containers:\n        - name: app\n          image: registry.example/app:1\n          args:\n            $if: flag\n            $then: [--verbose, --trace]\n            $else: [--quiet]\n" + fixedConfigMap,
		schema:   "flag: {type: boolean}",
		inputs:   []input{{"flag", "bool", false, true}},
		context:  "{ flag = IN_flag }",
		docs:     []string{"apps/Deployment/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed:  []string{"apps/Deployment/@NS@/@NAME@"},
		checks: []check{
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.containers[0].args", `["--quiet"]`, `["--verbose","--trace"]`},
		},
	},
	{
		name:   "twin-if-field-container",
		family: "$if",
		twin: `{
    apiVersion = "apps/v1"
    kind       = "Deployment"
    metadata   = { name = "@NAME@", namespace = "@NS@" }
    spec = {
      selector = { matchLabels = { app = "@NAME@" } }
      template = {
        metadata = { labels = { app = "@NAME@" } }
        spec     = { containers = [merge({ name = "app", image = "registry.example/app:1" }, IN_flag ? { workingDir = "/srv" } : {})] }
      }
    }
  }`,
		inputs: []input{{"flag", "bool", false, true}},
	},
	{
		name:   "twin-if-list-container",
		family: "$if",
		twin: `{
    apiVersion = "apps/v1"
    kind       = "Deployment"
    metadata   = { name = "@NAME@", namespace = "@NS@" }
    spec = {
      selector = { matchLabels = { app = "@NAME@" } }
      template = {
        metadata = { labels = { app = "@NAME@" } }
        spec     = { containers = [{ name = "app", image = "registry.example/app:1", args = IN_flag ? ["--verbose", "--trace"] : ["--quiet"] }] }
      }
    }
  }`,
		inputs: []input{{"flag", "bool", false, true}},
	},
	{
		name:   "if-doc",
		family: "$if",
		template: "@SCHEMA@\n" + `$if: flag
$then:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: @NAME@
    namespace: @NS@
  data:
    enabled: "yes"
` + fixedConfigMap,
		schema:  "flag: {type: boolean}",
		inputs:  []input{{"flag", "bool", true, true}},
		context: "{ flag = IN_flag }",
		docs:    []string{"_/ConfigMap/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
	},
	{
		name:   "custom-kind",
		family: "custom kind",
		template: "@SCHEMA@\n" + `apiVersion: oracle.celyaml.test/v1
kind: Widget
metadata:
  name: @NAME@
  namespace: @NS@
spec:
  image:
    $eval: "${{ image }}"
  size:
    $eval: "${{ size }}"
  args:
    $eval: "${{ args }}"
` + fixedConfigMap,
		schema: "image: {type: string}\nsize: {type: integer}\nargs: {type: array, items: {type: string}}",
		inputs: []input{
			{"image", "string", "registry.example/widget:1", "registry.example/widget:2"},
			{"size", "number", 1, 2},
			{"args", "list(string)", []string{"--a"}, []string{"--b", "--c"}},
		},
		context: "{ image = IN_image, size = IN_size, args = IN_args }",
		call:    `provider::celyaml::validate(RENDER, yamldecode(file("${path.module}/crd.yaml")))`,
		docs:    []string{"oracle.celyaml.test/Widget/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-fixed"},
		changed: []string{"oracle.celyaml.test/Widget/@NS@/@NAME@"},
		checks: []check{
			{"oracle.celyaml.test/Widget/@NS@/@NAME@", "spec", `{"args":["--a"],"image":"registry.example/widget:1","size":1}`, `{"args":["--b","--c"],"image":"registry.example/widget:2","size":2}`},
		},
	},
	{
		name:   "overlay",
		family: "overlay and transform",
		template: `$include: upstream.yaml
---
@SCHEMA@
$overlay: "doc.kind == 'Deployment'"
spec:
  template:
    spec:
      containers:
        - $match: "item.name == 'controller'"
          image:
            $eval: "${{ image }}"
`,
		files:   map[string]string{"upstream.yaml": upstreamBundle},
		schema:  "image: {type: string}",
		inputs:  []input{{"image", "string", "registry.example/controller:1", "registry.example/controller:2"}},
		context: "{ image = IN_image }",
		docs:    []string{"apps/Deployment/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-config"},
		changed: []string{"apps/Deployment/@NS@/@NAME@"},
		checks: []check{
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.containers[0].image", `"registry.example/controller:1"`, `"registry.example/controller:2"`},
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.containers[1].image", `"upstream.example/sidecar:0.9"`, `"upstream.example/sidecar:0.9"`},
		},
	},
	{
		name:   "transform-images",
		family: "overlay and transform",
		template: `$include: upstream.yaml
---
@SCHEMA@
$transform:
  images:
    - name: upstream.example/controller
      newName: registry.example/controller
      newTag:
        $eval: "${{ tag }}"
`,
		files:   map[string]string{"upstream.yaml": upstreamBundle},
		schema:  "tag: {type: string}",
		inputs:  []input{{"tag", "string", "1", "2"}},
		context: "{ tag = IN_tag }",
		docs:    []string{"apps/Deployment/@NS@/@NAME@", "_/ConfigMap/@NS@/@NAME@-config"},
		changed: []string{"apps/Deployment/@NS@/@NAME@"},
		checks: []check{
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.containers[0].image", `"registry.example/controller:1"`, `"registry.example/controller:2"`},
			{"apps/Deployment/@NS@/@NAME@", "spec.template.spec.containers[1].image", `"upstream.example/sidecar:0.9"`, `"upstream.example/sidecar:0.9"`},
		},
	},
}

// upstreamBundle stands for a vendored release bundle, plain YAML.
const upstreamBundle = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: @NAME@
  namespace: @NS@
spec:
  selector:
    matchLabels: {app: @NAME@}
  template:
    metadata:
      labels: {app: @NAME@}
    spec:
      containers:
        - name: controller
          image: upstream.example/controller:1.0
        - name: sidecar
          image: upstream.example/sidecar:0.9
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: @NAME@-config
  namespace: @NS@
data:
  level: info
`

// crdText is the CustomResourceDefinition of the custom-kind scenario,
// created before the first plan (kubernetes_manifest reads a kind's schema
// from the server at plan) and given to validate.
const crdText = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.oracle.celyaml.test
spec:
  group: oracle.celyaml.test
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
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
                image: {type: string}
                size: {type: integer, minimum: 1}
                args: {type: array, items: {type: string}}
`
