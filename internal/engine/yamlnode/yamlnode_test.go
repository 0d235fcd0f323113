package yamlnode

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"go.yaml.in/yaml/v3"
)

func parse(t *testing.T, text string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	return &doc
}

func TestPlain_readsYAML12CoreScalars(t *testing.T) {
	v, err := Plain(parse(t, "s: yes\nb: true\ni: 0x1F\nbig: 18446744073709551616\nf: 1.5\nn: ~\nts: 2024-01-01\nl: [on, 2]\n"))
	if err != nil {
		t.Fatal(err.Msg)
	}
	m := v.(*value.Map)
	want := map[string]value.Value{
		"s": "yes", "b": true, "i": int64(31), "big": 18446744073709551616.0, "f": 1.5, "n": nil,
		"ts": "2024-01-01", "l": []value.Value{"on", int64(2)},
	}
	for k, w := range want {
		got, _ := m.Get(k)
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s = %#v, want %#v", k, got, w)
		}
	}
	if strings.Join(m.Keys(), ",") != "s,b,i,big,f,n,ts,l" {
		t.Errorf("keys in order: %v", m.Keys())
	}
}

func TestPlain_refusesWhatJSONAndTerraformCannotHold(t *testing.T) {
	for text, want := range map[string]string{
		"a: 1\na: 2\n":        `2:1 duplicate key "a": already written at line 1, column 1`,
		"<<: {a: 1}\n":        "1:1 merge keys (<<) are not supported: they mean different things to YAML 1.1 and 1.2 readers; use an alias as a value, $let or $include instead",
		"? [a]\n: 1\n":        "1:3 a mapping key must be a scalar, not a sequence",
		"{ .Values.x }: 1\n":  "1:1 a mapping key must be a scalar, not a mapping; " + HelmActionHint,
		"x: !!binary aGk=\n":  "1:4 !!binary is not supported: write the base64 text as a plain string",
		"x: !custom 1\n":      "1:4 unsupported YAML tag !custom: only the core tags (!!str, !!int, !!float, !!bool, !!null, !!map, !!seq) are allowed",
		"x: .nan\n":           "1:4 .nan is not a finite number, and JSON and Terraform numbers cannot hold one: quote it to keep it as text, or compute it in a CEL expression with double()",
		"x: !!int 1e999999\n": "1:4 invalid integer",
	} {
		_, err := Plain(parse(t, text))
		if err == nil {
			t.Errorf("%q: no error", text)
			continue
		}
		if got := strconv.Itoa(err.Node.Line) + ":" + strconv.Itoa(err.Node.Column) + " " + err.Msg; got != want {
			t.Errorf("%q:\n got %s\nwant %s", text, got, want)
		}
	}
}

func TestPlain_stopsAnAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 8; i++ {
		b.WriteString("a" + strconv.Itoa(i) + ": &a" + strconv.Itoa(i) + " [")
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + strconv.Itoa(i-1))
		}
		b.WriteString("]\n")
	}
	_, err := Plain(parse(t, b.String()))
	if err == nil || err.Msg != "YAML aliases expand to more than 1000000 nodes (alias bomb?)" {
		t.Fatalf("err = %v", err)
	}
}

func TestAKind_namesKindsWithTheirArticle(t *testing.T) {
	doc := parse(t, "[{}, [], 1, 1.5, true, ~, s]")
	var got []string
	for _, n := range doc.Content[0].Content {
		got = append(got, AKind(n))
	}
	if want := "a mapping,a sequence,an int,a float,a bool,null,a string"; strings.Join(got, ",") != want {
		t.Errorf("got %s, want %s", strings.Join(got, ","), want)
	}
}
