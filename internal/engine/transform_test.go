package engine

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/transform"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// Transforms and removing overlays on unknown values (reference §10, §8):
// a namespace not known yet makes the fields it sets unknown, a document
// whose kind or scope is not known yet becomes unknown as a whole, and an
// undecidable removal makes the stream's length unknown.
func TestTransform_unknownValues(t *testing.T) {
	vars := map[string]value.Value{
		"ns":    value.Unknown{Type: value.TypeString},
		"any":   value.Unknown{},
		"flag":  value.Unknown{Type: value.TypeBool},
		"scope": value.Unknown{Type: value.TypeString},
	}
	const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n"
	cases := []struct{ name, tmpl, want string }{
		{"an unknown namespace makes metadata.namespace unknown",
			cm + "$transform: {namespace: {$eval: '${{ ns }}'}}\n",
			`{apiVersion:"v1",kind:"ConfigMap",metadata:{name:"a",namespace:?string}}`},
		{"an unknown namespace leaves cluster-scoped objects alone",
			"apiVersion: v1\nkind: Node\nmetadata: {name: n}\n---\n$transform: {namespace: {$eval: '${{ ns }}'}}\n",
			`{apiVersion:"v1",kind:"Node",metadata:{name:"n"}}`},
		{"an unknown namespace renames a Namespace to an unknown name",
			"apiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n---\n$transform: {namespace: {$eval: '${{ ns }}'}}\n",
			`{apiVersion:"v1",kind:"Namespace",metadata:{name:?string}}`},
		{"a kind not known yet makes the document unknown",
			"apiVersion: v1\nkind: {$eval: '${{ any }}'}\nmetadata: {name: a}\n---\n$transform: {namespace: edge}\n", `?`},
		{"a CustomResourceDefinition scope not known yet makes its objects unknown",
			"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: ws.x.io}\nspec: {group: x.io, names: {kind: W}, scope: {$eval: '${{ scope }}'}}\n---\n" +
				"apiVersion: x.io/v1\nkind: W\nmetadata: {name: w}\n---\n$transform: {namespace: edge}\n",
			`{apiVersion:"apiextensions.k8s.io/v1",kind:"CustomResourceDefinition",metadata:{name:"ws.x.io"},spec:{group:"x.io",names:{kind:"W"},scope:?string}} | ?`},
		{"labels alone need no kind, so a kind not known yet keeps the document",
			"apiVersion: v1\nkind: {$eval: '${{ any }}'}\nmetadata: {name: a}\n---\n$transform: {labels: {a: b}}\n",
			`{apiVersion:"v1",kind:?,metadata:{name:"a",labels:{a:"b"}}}`},
		{"an unknown label value is an unknown leaf",
			cm + "$transform: {labels: {team: {$eval: '${{ any }}'}}}\n",
			`{apiVersion:"v1",kind:"ConfigMap",metadata:{name:"a",labels:{team:?string}}}`},
		{"an unknown image name makes every image unknown",
			"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a, image: nginx}]}\n---\n$transform: {images: [{name: {$eval: '${{ any }}'}, newTag: '1'}]}\n",
			`{apiVersion:"v1",kind:"Pod",metadata:{name:"p"},spec:{containers:[{name:"a",image:?string}]}}`},
		{"an unknown new tag makes matching images unknown only",
			"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a, image: nginx}, {name: b, image: redis}]}\n---\n$transform: {images: [{name: nginx, newTag: {$eval: '${{ any }}'}}]}\n",
			`{apiVersion:"v1",kind:"Pod",metadata:{name:"p"},spec:{containers:[{name:"a",image:?string},{name:"b",image:"redis"}]}}`},
		{"a transform whose value is unknown makes every document unknown",
			cm + "$transform: {$eval: '${{ any }}'}\n", `?`},
		{"a transform whose assert cannot be decided makes every document unknown",
			cm + "$assert: flag\n$transform: {labels: {a: b}}\n", `?`},
		{"a subject's name not known yet gets an unknown namespace",
			"apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: b, namespace: x}\nsubjects: [{kind: ServiceAccount, name: {$eval: '${{ any }}'}}]\n---\n$transform: {namespace: edge}\n",
			`{apiVersion:"rbac.authorization.k8s.io/v1",kind:"RoleBinding",metadata:{name:"b",namespace:"edge"},subjects:[{kind:"ServiceAccount",name:?,namespace:?string}]}`},
		{"an undecidable removal makes the stream unknown",
			cm + "$overlay: flag\n$remove: true\n", `<stream?>`},
		{"a removal decided for every document stays known",
			cm + "$overlay: doc.kind == 'Job'\n$expects: 0\n$remove: true\n",
			`{apiVersion:"v1",kind:"ConfigMap",metadata:{name:"a"}}`},
	}
	e := New(Options{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := renderInline(t, e, c.tmpl, vars); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// The Namespace option is the command line's -n (reference §10): a
// transform with only namespace, after the template's own transforms.
func TestTransform_namespaceOption(t *testing.T) {
	e := New(Options{Namespace: "cli"})
	cases := []struct{ name, tmpl, want string }{
		{"sets the namespace of namespaced objects",
			"apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n}\n",
			`{apiVersion:"v1",kind:"ServiceAccount",metadata:{name:"a",namespace:"cli"}} | {apiVersion:"v1",kind:"Node",metadata:{name:"n"}}`},
		{"applies after the template's own transform",
			"apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: a}\n---\n$transform: {namespace: tpl, labels: {a: b}}\n",
			`{apiVersion:"v1",kind:"ServiceAccount",metadata:{name:"a",namespace:"cli",labels:{a:"b"}}}`},
		{"a kind of unknown scope is an error that names the option and the document",
			"apiVersion: x.io/v1\nkind: W\nmetadata: {name: w}\n",
			"error: <inline>:1:1: the namespace option (-n): cannot tell whether kind x.io/W is namespaced: it is not a built-in kind of Kubernetes " + builtinVersionForTest() + " and no CustomResourceDefinition among the documents or given beside them defines it; give its CustomResourceDefinition: render it with the objects, or pass it to the command line's --schemas (a file or a directory); or leave the object where it is with --keep-namespace KIND/NAME\n  while editing document 1 (x.io/W/_/w)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := renderInline(t, e, c.tmpl, nil); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// A transform never changes the values a render shares: variables, the
// compiled template's constants, or what an earlier render returned.
func TestTransform_sharesNothingItChanges(t *testing.T) {
	labels := mapOf("app", "web")
	vars := map[string]value.Value{"meta": mapOf("name", "a", "labels", labels)}
	e := New(Options{})
	src := Source{Text: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {$eval: '${{ meta }}'}\n---\n$transform: {namespace: edge, labels: {team: x}}\n")}
	first, err := e.Render(context.Background(), src, vars)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dumpDocs(first), `{apiVersion:"v1",kind:"ConfigMap",metadata:{name:"a",labels:{app:"web",team:"x"},namespace:"edge"}}`; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if got, want := dumpDocs([]value.Value{vars["meta"]}), `{name:"a",labels:{app:"web"}}`; got != want {
		t.Errorf("the variable changed: %s, want %s", got, want)
	}
	again, err := New(Options{}).Render(context.Background(), Source{Text: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {$eval: '${{ meta }}'}\n")}, vars)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dumpDocs(again), `{apiVersion:"v1",kind:"ConfigMap",metadata:{name:"a",labels:{app:"web"}}}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func builtinVersionForTest() string {
	_, v := transform.BuiltinScopes()
	return v
}

// A removing overlay removes the documents' origins with them, so that
// RenderDocuments still says where each document came from.
func TestTransform_removeKeepsOrigins(t *testing.T) {
	src := Source{Text: []byte("a: 1\n---\nb: 2\n---\nc: 3\n---\n$overlay: has(doc.b)\n$remove: true\n")}
	docs, err := New(Options{}).RenderDocuments(context.Background(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		got = append(got, dumpDocs([]value.Value{d.Value})+"@"+strconv.Itoa(d.Origin.Line))
	}
	if want := []string{"{a:1}@1", "{c:3}@5"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
