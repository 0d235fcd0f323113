package provider

import (
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// guideMatrixPath is the unknown-values guide, whose "What is typed from
// where" table TestGuide_unknownTypesMatrix holds to what render gives.
const guideMatrixPath = "../../templates/guides/unknown-values.md.tmpl"

// matrixRows reads the guide's matrix: each row's cells, by the text of
// its first two ("the unknown | where it lands").
func matrixRows(t *testing.T) map[string][]string {
	t.Helper()
	text, err := os.ReadFile(guideMatrixPath)
	if err != nil {
		t.Fatal(err)
	}
	const head = "| the unknown | where it lands | returned as |"
	_, table, found := strings.Cut(string(text), head)
	if !found {
		t.Fatalf("the guide has no table starting %q", head)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(table, "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows[cells[0]+" | "+cells[1]] = cells
	}
	return rows
}

// The guide's matrix is what render gives: each row's case is rendered on
// the server's path with the context it describes, and its "returned as"
// cell must name the type of the unknown at the case's path (or the
// error, or the unknown result); every row of the table has a case.
func TestGuide_unknownTypesMatrix(t *testing.T) {
	unknown := func(typ tftypes.Type) tftypes.Value { return tftypes.NewValue(typ, tftypes.UnknownValue) }
	dyn := unknown(tftypes.DynamicPseudoType)
	listStr := unknown(tftypes.List{ElementType: tftypes.String})
	deploy := func(container string) string {
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n" +
			"  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n        - name: web\n" + container
	}
	widgetCRD := "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n" +
		"spec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions:\n" +
		"    - name: v1\n      served: true\n      storage: true\n      schema:\n        openAPIV3Schema:\n" +
		"          type: object\n          properties:\n            spec:\n              type: object\n              properties:\n                size: {type: integer}\n---\n"
	widget := "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n  size: {$eval: \"${{ v }}\"}\n"
	cases := []struct {
		row  string // the row's first two cells
		tmpl string
		vars map[string]tftypes.Value
		path string // the unknown's path in the result; "" for the whole result
		want string // the "returned as" cell
		typ  string // the unknown's type at path: string, number, bool or dynamic
	}{
		{"a string, number or bool that came typed (`aws_ecr_image.x.image_uri`, `length(...)`) | a field of that type",
			deploy("          image: {$eval: \"${{ v }}\"}\n"), map[string]tftypes.Value{"v": unknown(tftypes.String)},
			"spec.template.spec.containers[0].image", "its type", "string"},
		{"`jsondecode()` of an unknown, or `values.image` of a value unknown as a whole | a string, number or bool field of a built-in kind",
			deploy("          image: {$eval: \"${{ values.image }}\"}\n"), map[string]tftypes.Value{"values": dyn},
			"spec.template.spec.containers[0].image", "the field's type", "string"},
		{"the same | a field of a custom kind whose CRD is in the same render",
			widgetCRD + widget, map[string]tftypes.Value{"v": dyn}, "[1].spec.size", "the field's type", "number"},
		{"the same | a field of a custom kind no schema covers",
			widget, map[string]tftypes.Value{"v": dyn}, "spec.size", "`dynamic`", "dynamic"},
		{"`values.image` where `$schema` declares `image` | any field",
			"$schema:\n  values: {type: object, properties: {image: {type: string}}}\nkind: Thing\nimage: {$eval: \"${{ values.image }}\"}\n",
			map[string]tftypes.Value{"values": dyn}, "image", "the declared type", "string"},
		{"an unknown `list(string)`, `map(string)` or object | a list, map or object field outside any list (`metadata.labels`, `spec.selector`)",
			"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {$eval: \"${{ v }}\"}\n",
			map[string]tftypes.Value{"v": unknown(tftypes.Map{ElementType: tftypes.String})}, "metadata.labels", "`dynamic`", "dynamic"},
		{"the same | a list, map or object field inside a list (`containers[0].args`)",
			deploy("          args: {$eval: \"${{ v }}\"}\n"), map[string]tftypes.Value{"v": listStr},
			"spec.template.spec.containers", "`dynamic`, as the outermost list around it (`containers`)", "dynamic"},
		{"an unknown number, or `jsondecode()` of an unknown | an int-or-string field (a Service's `targetPort`, a probe's `port`)",
			"apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  ports:\n    - port: 80\n      targetPort: {$eval: \"${{ v }}\"}\n",
			map[string]tftypes.Value{"v": unknown(tftypes.Number)}, "spec.ports", "`dynamic`; inside a list, as the outermost list around it", "dynamic"},
		{"an `$if` on an unknown between two strings (or two numbers, two bools) | a field",
			deploy("          imagePullPolicy: {$if: v, $then: Always, $else: IfNotPresent}\n"), map[string]tftypes.Value{"v": dyn},
			"spec.template.spec.containers[0].imagePullPolicy", "that type", "string"},
		{"an `$if` on an unknown between mappings, or merged beside keys | an object field inside a list (a container)",
			deploy("          image: app\n          $if: v\n          $then: {workingDir: /srv}\n"),
			map[string]tftypes.Value{"v": dyn}, "spec.template.spec.containers", "`dynamic`, as the outermost list around it", "dynamic"},
		{"a `$for` over an unknown list | a list field inside a list",
			deploy("          args:\n            - $for: a in v\n              $do: {$eval: \"${{ a }}\"}\n"), map[string]tftypes.Value{"v": listStr},
			"spec.template.spec.containers", "`dynamic`, as the outermost list around it", "dynamic"},
		{"an unknown string | a number field (`spec.replicas`)",
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: {$eval: \"${{ v }}\"}\n",
			map[string]tftypes.Value{"v": unknown(tftypes.String)}, "", "an error at plan naming both types", ""},
		{"an `$if` or `$for` on an unknown at a document's root | the stream",
			"$if: v\n$then: {kind: ConfigMap, apiVersion: v1, metadata: {name: c}}\n", map[string]tftypes.Value{"v": dyn},
			"", "the whole result unknown", ""},
	}
	rows := matrixRows(t)
	srv := NewServer("test")()
	for _, c := range cases {
		cells, ok := rows[c.row]
		if !ok {
			t.Errorf("the guide's matrix has no row %q", c.row)
			continue
		}
		delete(rows, c.row)
		if cells[2] != c.want {
			t.Errorf("row %q: the guide says %q, the case %q", c.row, cells[2], c.want)
		}
		var got string
		switch c.want {
		case "an error at plan naming both types":
			text := callError(t, srv, "render", str(c.tmpl), ctxObject(c.vars))
			if strings.Contains(text, "an unknown string where the kind's schema declares number") {
				got = c.want
			} else {
				got = text
			}
		case "the whole result unknown":
			v := callForResult(t, srv, "render", str(c.tmpl), ctxObject(c.vars))
			if !v.IsKnown() {
				got = c.want
			} else {
				got = v.String()
			}
		default:
			leaves := unknownLeaves(t, callForResult(t, srv, "render", str(c.tmpl), ctxObject(c.vars)))
			got = "(no unknown at " + c.path + " in " + leaves + ")"
			for _, l := range strings.Split(leaves, "\n") {
				if typ, found := strings.CutPrefix(l, c.path+": "); found {
					got = typ
				}
			}
			want := map[string]string{"string": "tftypes.String", "number": "tftypes.Number", "bool": "tftypes.Bool", "dynamic": "tftypes.DynamicPseudoType"}[c.typ]
			if got != want {
				t.Errorf("row %q: render gives %s at %s, the case wants %s", c.row, got, c.path, want)
			}
			continue
		}
		if got != c.want {
			t.Errorf("row %q: render gives %s, the guide says %s", c.row, got, c.want)
		}
	}
	for row := range rows {
		t.Errorf("the guide's matrix row %q has no case", row)
	}
}
