package check_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// typeReport checks t.yaml of files, each problem as
// `FILE:LINE:COLUMN: PATH: MESSAGE`, and, for one inside an expression,
// ` @ TEXT`: the expression from the offset check gives, so that a test
// pins the field's place in the expression too.
func typeReport(t *testing.T, files fstest.MapFS) string {
	t.Helper()
	e := engine.New(engine.Options{Loader: engine.FSLoader{FS: files}})
	src, err := e.LoadFile(context.Background(), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	problems, _ := e.Check(context.Background(), src, nil)
	var b strings.Builder
	for _, p := range problems {
		b.WriteString(p.Err.Pos.String() + ": " + p.Err.Path + ": " + p.Err.Msg)
		if p.Err.Offset >= 0 && p.Err.Offset <= len(p.Err.Expr) {
			b.WriteString(" @ " + p.Err.Expr[p.Err.Offset:])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// podinfoSchema is a chart's values.schema.json as charts write them:
// draft-07, with definitions that properties and items point at.
const podinfoSchema = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {
    "replicaCount": {"type": "integer", "minimum": 1},
    "image": {
      "type": "object",
      "properties": {
        "repository": {"type": "string"},
        "tag": {"type": "string"},
        "pullPolicy": {"type": "string", "enum": ["Always", "IfNotPresent"]}
      }
    },
    "service": {
      "type": "object",
      "properties": {"type": {"type": "string"}, "httpPort": {"type": "integer"}}
    },
    "resources": {"$ref": "#/definitions/resources", "description": "requests and limits"},
    "ingress": {
      "type": "object",
      "properties": {
        "enabled": {"type": "boolean"},
        "hosts": {"type": "array", "items": {"$ref": "#/definitions/host"}}
      }
    },
    "podAnnotations": {"type": "object", "additionalProperties": {"type": "string"}},
    "extraArgs": {"x-kubernetes-preserve-unknown-fields": true}
  },
  "definitions": {
    "quantities": {"type": "object", "properties": {"cpu": {"type": "string"}, "memory": {"type": "string"}}},
    "resources": {
      "type": "object",
      "properties": {"limits": {"$ref": "#/definitions/quantities"}, "requests": {"$ref": "#/definitions/quantities"}}
    },
    "host": {"type": "object", "properties": {"host": {"type": "string"}, "paths": {"type": "array", "items": {"type": "string"}}}}
  }
}
`

// The types of a variable whose schema is a chart's values.schema.json,
// `{$include: FILE}` (reference §4 $schema), are the file's: its local
// $refs are followed, so a misspelt field anywhere in the values is found
// before any value exists, at its place in the expression.
func TestCheckTypes_schemaFromAnIncludedChartSchema(t *testing.T) {
	files := fstest.MapFS{
		"chart/values.schema.json": {Data: []byte(podinfoSchema)},
		"t.yaml": {Data: []byte(`$schema:
  values: {$include: chart/values.schema.json}
spec:
  replicas:
    $eval: "${{ values.replicaCont }}"
  image:
    $eval: "${{ values.image.repository }}:${{ values.image.tg }}"
  cpu:
    $eval: "${{ values.resources.limits.cpuu }}"
  hosts:
    $for: h in values.ingress.hosts
    $do:
      $eval: "${{ h.hst }}"
  firstHost:
    $eval: "${{ values.ingress.hosts[0].paths + 'x' }}"
  fine:
    $eval: "${{ values.replicaCount + 1 }}-${{ values.resources.requests.memory }}-${{ values.podAnnotations.anything }}-${{ values.extraArgs.any.thing }}"
`)},
	}
	want := `t.yaml:5:12: spec.replicas.$eval: undefined field 'replicaCont'; did you mean replicaCount? @ .replicaCont }}
t.yaml:7:12: spec.image.$eval: undefined field 'tg'; did you mean tag? @ .tg }}
t.yaml:9:12: spec.cpu.$eval: undefined field 'cpuu'; did you mean cpu? @ .cpuu }}
t.yaml:13:14: spec.hosts.$do.$eval: undefined field 'hst'; did you mean host? @ .hst }}
t.yaml:15:12: spec.firstHost.$eval: no matching overload for list + string; to add one element to a list, wrap it in a list: xs + [x] @ + 'x' }}
`
	if got := typeReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// An included schema is found as a render finds it: relative to the file
// that holds the $schema (here a template that t.yaml includes), YAML as
// well as JSON. One that cannot be read is the render's error, and its
// variable is dyn: nothing else is reported about it.
func TestCheckTypes_includedSchemaIsReadAsRenderReadsIt(t *testing.T) {
	files := fstest.MapFS{
		"t.yaml": {Data: []byte(`a:
  $include: parts/a.yaml
b:
  $schema:
    gone: {$include: gone.schema.json}
  $eval: "${{ gone.anything + 1 }}"
`)},
		"parts/a.yaml": {Data: []byte(`$schema:
  app: {$include: app.schema.yaml}
name:
  $eval: "${{ app.naem }}"
`)},
		"parts/app.schema.yaml": {Data: []byte("type: object\nproperties:\n  name: {type: string}\n")},
	}
	want := `parts/a.yaml:4:10: name.$eval: undefined field 'naem'; did you mean name? @ .naem }}
t.yaml:5:22: b.$schema: cannot read included schema file "gone.schema.json": file does not exist
`
	if got := typeReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// check reads an included schema with the render's loader, roots and
// limits, and so meets the render's errors, word for word and at the same
// place (reference §4 $schema; CLI guide, `check`): a file outside the
// include roots, one larger than MaxTemplateBytes, one nested deeper than
// MaxIncludeDepth. Its variable is then dyn: nothing else is reported.
func TestCheckTypes_includedSchemaMeetsTheRenderLimits(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("outside/v.schema.json", `{"type": "object", "properties": {"a": {"type": "string"}}}`)
	write("root/big.schema.json", `{"type": "object", "properties": {"a": {"type": "string"}}, "description": "`+strings.Repeat("x", 300)+`"}`)
	write("root/deep.yaml", "$schema:\n  v: {$include: v.schema.json}\nx:\n  $eval: \"${{ v.b }}\"\n")
	write("root/v.schema.json", `{"type": "object", "properties": {"a": {"type": "string"}}}`)
	cases := []struct {
		name, template string
		opts           engine.Options
	}{
		{"outside the roots", "$schema:\n  v: {$include: ../outside/v.schema.json}\nx:\n  $eval: \"${{ v.b }}\"\n",
			engine.Options{Loader: engine.OSLoader{Roots: []string{filepath.Join(dir, "root")}}}},
		{"larger than MaxTemplateBytes", "$schema:\n  v: {$include: big.schema.json}\nx:\n  $eval: \"${{ v.b }}\"\n",
			engine.Options{MaxTemplateBytes: 200}},
		{"deeper than MaxIncludeDepth", "y:\n  $include: deep.yaml\n",
			engine.Options{MaxIncludeDepth: 1}},
	}
	for _, c := range cases {
		write("root/t.yaml", c.template)
		e := engine.New(c.opts)
		ctx := context.Background()
		src, err := e.LoadFile(ctx, filepath.Join(dir, "root", "t.yaml"))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, rerr := e.Render(ctx, src, map[string]value.Value{"v": map[string]value.Value{"a": "x"}})
		var want *engine.Error
		if !errors.As(rerr, &want) {
			t.Fatalf("%s: the render gives %v, want a positioned error", c.name, rerr)
		}
		problems, _ := e.Check(ctx, src, func(n string) bool { return n == "v" })
		if len(problems) != 1 || problems[0].Err.Pos != want.Pos || problems[0].Err.Path != want.Path || problems[0].Err.Msg != want.Msg {
			var got []string
			for _, p := range problems {
				got = append(got, p.Err.Pos.String()+": "+p.Err.Path+": "+p.Err.Msg)
			}
			t.Errorf("%s: check reports\n%s\nwant only the render's\n%s: %s: %s", c.name, strings.Join(got, "\n"), want.Pos, want.Path, want.Msg)
		}
	}
}

// check reads the files a $schema includes as JSON Schemas (reference §4
// $schema), never as templates: a chart's values.schema.json opens with
// JSON Schema's own "$schema" keyword, which as a template would be a
// $schema directive. What render finds in them, check finds.
func TestSchemaInclude_checkReadsTheFilesAsSchemas(t *testing.T) {
	files := fstest.MapFS{
		"t.yaml": {Data: []byte(`a:
  $schema:
    values: {$include: chart/values.schema.json}
    other: {$include: missing.json}
  x: 1
b:
  $schema:
    broken: {$include: broken.json}
  y: 1
`)},
		"chart/values.schema.json": {Data: []byte(`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}`)},
		"broken.json":              {Data: []byte("{\"type\": \"object\",\n \"properties\": {\"a\": {\"type\": \"integr\"}}}")},
	}
	want := `t.yaml:4:23: a.$schema: cannot read included schema file "missing.json": file does not exist
broken.json:2:31: b.$schema: invalid schema for "broken": properties.a.type: unknown type "integr"; expected one of array, boolean, integer, null, number, object, string
`
	if got := checkReport(t, files); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
