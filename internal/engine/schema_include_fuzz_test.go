package engine

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/fstest"
	"time"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// FuzzSchemaInclude renders a template whose $schema takes a variable's
// schema from a file, with any file text (read as JSON, then as YAML) and
// any JSON value for the variable. Properties: the engine never panics or
// hangs; an error is an *Error whose line lies within the file it names,
// the template or the schema file.
func FuzzSchemaInclude(f *testing.F) {
	for _, s := range []struct{ schema, value string }{
		{`{"type": "object", "properties": {"replicaCount": {"type": "integer", "minimum": 1}}}`, `{"replicaCount": 0}`},
		{`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "default": {}}`, `null`},
		{"type: object\nrequired: [a]\ndefault: {a: 1}\n", `{}`},
		{`{"type": "object", "properties": {"x": {"$include": "y.json"}}}`, `{}`},
		{`{"type": "integr"}`, `1`},
		{`{"type": "object",`, `{}`},
		{"a: &a [1, *a]", `1`},
		{"", `1`},
		{"---\n---\n", `1`},
		{`{"$ref": "#/$defs/x", "$defs": {"x": {"type": "string"}}}`, `"s"`},
		{`{"x-kubernetes-validations": [{"rule": "self > 1"}]}`, `1`},
	} {
		f.Add([]byte(s.schema), []byte(s.value), false)
		f.Add([]byte(s.schema), []byte(s.value), true)
	}
	f.Fuzz(func(t *testing.T, schemaText, valueJSON []byte, asYAML bool) {
		watchdog := time.AfterFunc(fuzzHangGuard, func() {
			panic(fmt.Sprintf("render still running after %v: schema %q, value %q", fuzzHangGuard, schemaText, valueJSON))
		})
		defer watchdog.Stop()
		name := "s.json"
		if asYAML {
			name = "s.yaml"
		}
		tpl := []byte("$schema:\n  v: {$include: " + name + "}\nx:\n  $eval: \"${{ v }}\"\n")
		vars, err := decodeJSONVars(append(append([]byte(`{"v": `), valueJSON...), '}'))
		if err != nil {
			vars = map[string]value.Value{}
		}
		opts := fuzzOptions()
		opts.Loader = FSLoader{FS: fstest.MapFS{name: {Data: schemaText}}}
		e := New(opts)
		_, rerr := e.Render(context.Background(), Source{Name: "template.yaml", Text: tpl}, vars)
		if rerr != nil {
			var ee *Error
			if !errors.As(rerr, &ee) {
				t.Fatalf("error is %T, want *Error: %v", rerr, rerr)
			}
			checkErrorPosition(t, ee, map[string][]byte{"template.yaml": tpl, name: schemaText})
		}
	})
}
