package provider

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/txtar"

	"github.com/celyaml/terraform-provider-celyaml/internal/cli"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
)

// The CLI guide, "Byte identity with the provider": `celyaml render` prints
// the documents celyaml_render.yaml holds, byte for byte, and `-o json`
// those json holds, followed by the newline that ends text on a terminal or
// in a pipe (the attribute keeps the engine's bytes, without one). Every successful golden case of the engine is
// rendered both ways from files: the data source gets vars.json as its
// context, the command the same variables from a values file (-f).
func TestCLIRenderPrintsTheDataSourceBytes(t *testing.T) {
	archives, err := filepath.Glob("../engine/testdata/golden/*/*.txtar")
	if err != nil || len(archives) < 150 {
		t.Fatalf("golden cases: %d, %v", len(archives), err)
	}
	compared := 0
	for _, name := range archives {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if section(ar, "out.yaml") == nil || section(ar, "unknowns.json") != nil {
			continue // an error case, or one with values not known yet (a plan's)
		}
		compared++
		t.Run(strings.TrimSuffix(filepath.Base(name), ".txtar"), func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range ar.Files {
				p := filepath.Join(dir, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			tmpl := filepath.Join(dir, "template.yaml")
			args := []string{"render", tmpl}
			vals := map[string]tftypes.Value{"template_file": str(tmpl)}
			if vars := section(ar, "vars.json"); vars != nil {
				ctx := contextFromJSON(t, vars)
				vals["context"] = ctx
				args = append(args, "-f", valuesFileOf(t, dir, ctx))
			}
			m := readOK(t, vals)
			if got := runCLI(t, args...); got != m.YAML.ValueString() {
				t.Errorf("yaml:\ncelyaml render:\n%s\ndata source:\n%s", got, m.YAML.ValueString())
			}
			if got := runCLI(t, append(args, "-o", "json")...); got != m.JSON.ValueString()+"\n" {
				t.Errorf("json:\ncelyaml render -o json:\n%q\ndata source, and a newline:\n%q", got, m.JSON.ValueString()+"\n")
			}
		})
	}
	if compared < 100 {
		t.Fatalf("only %d successful golden cases compared", compared)
	}
}

func section(ar *txtar.Archive, name string) []byte {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

// runCLI runs celyaml and returns its standard output; it must succeed
// and write nothing to standard error.
func runCLI(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := cli.Run(args, strings.NewReader(""), &stdout, &stderr); code != 0 || stderr.Len() != 0 {
		t.Fatalf("celyaml %s: exit %d, stderr:\n%s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String()
}

// contextFromJSON is the Terraform object a configuration's context would
// hold for a JSON object of variables.
func contextFromJSON(t *testing.T, text []byte) tftypes.Value {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal(text, &n); err != nil {
		t.Fatal(err)
	}
	v, yerr := yamlnode.Plain(&n)
	if yerr != nil {
		t.Fatal(yerr.Msg)
	}
	if _, ok := v.(*value.Map); !ok {
		t.Fatalf("vars.json is not an object")
	}
	tv, err := fromEngine(v)
	if err != nil {
		t.Fatal(err)
	}
	return tv
}

// valuesFileOf writes the variables the data source reads from ctx as a
// YAML values file, and returns its path. A Terraform context has no key
// order and one number type; the file holds what the data source sees,
// whole numbers as ints, but every mapping's keys in reverse order, so
// that the command must sort them as Terraform does (the CLI guide,
// "Byte identity with the provider").
func valuesFileOf(t *testing.T, dir string, ctx tftypes.Value) string {
	t.Helper()
	vars, _, err := contextVars(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m := value.NewMap(len(vars))
	for _, k := range slices.Backward(slices.Sorted(maps.Keys(vars))) {
		m.Set(k, reversedKeys(vars[k]))
	}
	text, err := engine.EncodeYAML(m)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "values.yaml")
	if err := os.WriteFile(p, text, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// reversedKeys is v with every mapping's keys in reverse order.
func reversedKeys(v value.Value) value.Value {
	switch x := v.(type) {
	case *value.Map:
		out := value.NewMap(x.Len())
		for i := x.Len() - 1; i >= 0; i-- {
			k, e := x.At(i)
			out.Set(k, reversedKeys(e))
		}
		return out
	case []value.Value:
		out := make([]value.Value, len(x))
		for i, e := range x {
			out[i] = reversedKeys(e)
		}
		return out
	}
	return v
}
