package validate

import (
	"strconv"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// The default check is a server-side apply that creates the object, and
// its messages name every key and the whole manifest ID, never a value.
func TestCheckServerSideApplyByDefault(t *testing.T) {
	s := widgetSchemas(t)
	for _, c := range []struct {
		name, doc string
		apply     []string // the default: a server-side apply
		create    []string // Options{Request: Create}
	}{
		{"a null the schema neither allows nor defaults", widgetHead + "spec: {maxDesired: 1, color: null}",
			[]string{"example.com/Widget/ns/w: <root>: Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation", `example.com/Widget/ns/w: spec.color: Invalid value: spec.color in body must be of type string: "null"`},
			nil},
		{"no metadata at all", "apiVersion: example.com/v1\nkind: Widget\nspec: {}",
			[]string{"example.com/Widget/_/_: metadata.name: Required value: name is required for server-side apply"},
			[]string{"example.com/Widget/_/_: <root>: Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
				"example.com/Widget/_/_: metadata.name: Required value: name or generateName is required", "example.com/Widget/_/_: spec.maxDesired: Required value"}},
		{"an undeclared field is named", widgetHead + "spec: {maxDesired: 1, colour: red}",
			[]string{"example.com/Widget/ns/w: spec.colour: Invalid value: field not declared in schema"},
			[]string{"example.com/Widget/ns/w: spec.colour: Invalid value: field not declared in schema"}},
		{"a value of the wrong type, without the value", widgetHead + "spec: {maxDesired: HUNTER2VAR}",
			[]string{"example.com/Widget/ns/w: spec.maxDesired: Invalid value: expected numeric (int or float), got string"},
			[]string{"example.com/Widget/ns/w: <root>: Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation", `example.com/Widget/ns/w: spec.maxDesired: Invalid value: spec.maxDesired in body must be of type integer: "string"`}},
		{"two items of a list-type map with one key", widgetHead + "spec: {maxDesired: 1, ports: [{name: HUNTER2VAR, port: 1}, {name: HUNTER2VAR, port: 2}]}",
			[]string{"example.com/Widget/ns/w: spec.ports: Invalid value: duplicate entries for key [name=…]"},
			[]string{"example.com/Widget/ns/w: spec.ports[1]: Duplicate value"}},
		{"a list-type map item without its key", widgetHead + "spec: {maxDesired: 1, ports: [{port: 1}]}",
			[]string{`example.com/Widget/ns/w: spec.ports[0]: Invalid value: associative list with keys has an element that omits all key fields ["name"] (and doesn't have default values for any key fields)`},
			[]string{"example.com/Widget/ns/w: <root>: Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation", "example.com/Widget/ns/w: spec.ports[0].name: Required value"}},
		{"a key of a map the schema does not list is named", widgetHead + "spec: {maxDesired: 1, components: {HUNTER2VAR: {priority: low}}}",
			[]string{"example.com/Widget/ns/w: spec.components.HUNTER2VAR.priority: Invalid value: expected numeric (int or float), got string"},
			[]string{"example.com/Widget/ns/w: <root>: Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation", `example.com/Widget/ns/w: spec.components.HUNTER2VAR.priority: Invalid value: spec.components.HUNTER2VAR.priority in body must be of type integer: "string"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			docs := fromYAML(t, c.doc)
			got, err := s.CheckAll(docs)
			if err != nil || strings.Join(got, "\n") != strings.Join(c.apply, "\n") {
				t.Errorf("server-side apply: got %v\n%s\nwant\n%s", err, strings.Join(got, "\n"), strings.Join(c.apply, "\n"))
			}
			got, err = s.CheckAllWith(docs, Options{Request: Create})
			if err != nil || strings.Join(got, "\n") != strings.Join(c.create, "\n") {
				t.Errorf("create: got %v\n%s\nwant\n%s", err, strings.Join(got, "\n"), strings.Join(c.create, "\n"))
			}
			for _, line := range append(s.mustCheckAll(t, docs, Options{}), s.mustCheckAll(t, docs, Options{Request: Create})...) {
				if strings.Contains(line, "low") {
					t.Errorf("a value is printed: %s", line)
				}
			}
		})
	}
}

func (s *Schemas) mustCheckAll(t *testing.T, docs []value.Value, o Options) []string {
	t.Helper()
	lines, err := s.CheckAllWith(docs, o)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// A Secret's data: its keys are named, its values never shown, whichever
// request is checked.
func TestCheckNamesASecretsDataKeysButNeverItsValues(t *testing.T) {
	s, err := Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	docs := fromYAML(t, "apiVersion: v1\nkind: Secret\nmetadata: {name: db, namespace: prod}\ndata: {password: 'HUNTER2VAR not base64!'}")
	for _, o := range []Options{{}, {Request: Create}} {
		got := strings.Join(s.mustCheckAll(t, docs, o), "\n")
		want := "_/Secret/prod/db: data.password: Invalid value: data.password in body must be of type byte"
		if got != want {
			t.Errorf("%s: got\n%s\nwant\n%s", o.Request, got, want)
		}
	}
}

// The field manager names a list-type map item by its key; the check
// names it by its index, as the rest of the API server does.
func TestApplyPathsAreTheServersFieldPaths(t *testing.T) {
	doc := map[string]any{
		"data": map[string]any{"80": "x"},
		"spec": map[string]any{"ports": []any{
			map[string]any{"port": int64(80)},
			map[string]any{"port": int64(443), "protocol": "UDP"},
		}, "hostnames": []any{"a.example", "b.example"}},
	}
	for smd, want := range map[string]string{
		`.spec.ports[port=443,protocol="UDP"].targtPort`: "spec.ports[1].targtPort",
		`.spec.ports[port=80,protocol="TCP"].name`:       "spec.ports[0].name", // protocol left to its default
		`.spec.hostnames[="b.example"]`:                  "spec.hostnames[1]",
		`.spec.ports[port=8080]`:                         "spec.ports[?]",
		`.data.80`:                                       "data.80",
		`.spec.ports[1].port`:                            "spec.ports[1].port",
	} {
		if got := fieldPathOf(smdSegments(smd, doc)).String(); got != want {
			t.Errorf("%s: got %s, want %s", smd, got, want)
		}
	}
}

// checkSameOnEveryRun checks docs under a server-side apply 50 times:
// structured-merge-diff reads a mapping in Go's map order, so a verdict
// that depends on that order differs between runs.
func checkSameOnEveryRun(t *testing.T, s *Schemas, docs []value.Value, want string) {
	t.Helper()
	for run := 0; run < 50; run++ {
		got, err := s.CheckAll(docs)
		if err != nil || strings.Join(got, "\n") != want {
			t.Fatalf("run %d: got %v\n%s\nwant\n%s", run, err, strings.Join(got, "\n"), want)
		}
	}
}

// structured-merge-diff stops reading a mapping at its first undeclared
// field, in Go's map order; a server-side apply's errors are still every
// error of the document, the same on every run, in path order.
func TestCheckServerSideApplyGivesEveryErrorOnEveryRun(t *testing.T) {
	s := widgetSchemas(t)
	docs := fromYAML(t, widgetHead+"spec: {maxDesired: HUNTER2VAR, colour: red, zeta: 1, alpha: 2}")
	want := strings.Join([]string{
		"example.com/Widget/ns/w: spec.alpha: Invalid value: field not declared in schema",
		"example.com/Widget/ns/w: spec.colour: Invalid value: field not declared in schema",
		"example.com/Widget/ns/w: spec.maxDesired: Invalid value: expected numeric (int or float), got string",
		"example.com/Widget/ns/w: spec.zeta: Invalid value: field not declared in schema",
	}, "\n")
	checkSameOnEveryRun(t, s, docs, want)
}

// An undeclared key may hold a '.' or a '[' (a label key written under
// spec, say), which the field manager's path writes as it is: it is still
// one key, removed before the next reading, so every undeclared key is
// named on every run, as a create names them.
func TestCheckServerSideApplyNamesEveryUndeclaredKeyWithADotOnEveryRun(t *testing.T) {
	s := widgetSchemas(t)
	docs := fromYAML(t, widgetHead+"spec: {maxDesired: 1, app.kubernetes.io/name: web, zeta: 1, alpha: 2, 'x[0]': 1, app: 3}")
	want := strings.Join([]string{
		"example.com/Widget/ns/w: spec.alpha: Invalid value: field not declared in schema",
		"example.com/Widget/ns/w: spec.app: Invalid value: field not declared in schema",
		"example.com/Widget/ns/w: spec.app.kubernetes.io/name: Invalid value: field not declared in schema",
		"example.com/Widget/ns/w: spec.x[0]: Invalid value: field not declared in schema",
		"example.com/Widget/ns/w: spec.zeta: Invalid value: field not declared in schema",
	}, "\n")
	checkSameOnEveryRun(t, s, docs, want)
	got, err := s.CheckAllWith(docs, Options{Request: Create})
	if err != nil || strings.Join(got, "\n") != want {
		t.Errorf("create: got %v\n%s\nwant\n%s", err, strings.Join(got, "\n"), want)
	}
}

// A field name in the field manager's path is the key of the document it
// goes on with: the longest that lets the rest of the path be read.
func TestApplyPathsReadKeysThatHoldADot(t *testing.T) {
	doc := map[string]any{"spec": map[string]any{
		"app":                    map[string]any{"kubernetes": map[string]any{"io": 1}},
		"app.kubernetes.io/name": "web",
		"a.b":                    map[string]any{"c": 1},
		"a":                      map[string]any{"b.c": 1},
		"x[0]":                   []any{"y"},
	}}
	show := func(segs []apiPathSeg) string {
		var out []string
		for _, s := range segs {
			if s.index >= 0 {
				out = append(out, "#"+strconv.Itoa(s.index))
			} else {
				out = append(out, strconv.Quote(s.key))
			}
		}
		return strings.Join(out, " ")
	}
	for smd, want := range map[string]string{
		`.spec.app.kubernetes.io/name`: `"spec" "app.kubernetes.io/name"`,
		`.spec.app.kubernetes.io`:      `"spec" "app" "kubernetes" "io"`,
		`.spec.a.b.c`:                  `"spec" "a.b" "c"`, // both readings exist: the longest key first
		`.spec.x[0][0]`:                `"spec" "x[0]" #0`,
		`.spec.absent.key`:             `"spec" "absent" "key"`,
		`.spec.app.kubernetes.io/nam`:  `"spec" "app" "kubernetes" "io/nam"`,
	} {
		if got := show(smdSegments(smd, doc)); got != want {
			t.Errorf("%s: got %s, want %s", smd, got, want)
		}
	}
}

// A document whose keys are prefixes of each other at every level ("x"
// and "x.x") can be read along exponentially many ways; a path none of
// them reads to its end stops after maxPathReads steps, its remainder one
// segment, instead of trying every split.
func TestApplyPathsStopOnKeysThatArePrefixesOfEachOther(t *testing.T) {
	const depth = 60
	var level any = 1
	for range depth {
		level = map[string]any{"x": level, "x.x": level}
	}
	p := strings.Repeat(".x", depth) + ".absent"
	segs := smdSegments(p, level)
	var keys []string
	for _, s := range segs {
		keys = append(keys, s.key)
	}
	if got := "." + strings.Join(keys, "."); got != p {
		t.Errorf("the segments read %q, not the path %q", got, p)
	}
}
