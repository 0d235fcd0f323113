package schema

import (
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

const portsSchema = `
ports:
  type: array
  maxItems: 4
  items: {type: integer}
  x-kubernetes-validations:
  - rule: "self.all(p, p > 0)"
    message: every port must be positive
`

func TestRulesFailAtTheirNode(t *testing.T) {
	s := mustCompile(t, portsSchema)
	_, failures, _ := s.Check(func(string) (value.Value, bool) { return []value.Value{int64(80), int64(0)}, true })
	if got := strings.Join(failures, "\n"); got != "ports: every port must be positive" {
		t.Errorf("got %q", got)
	}
}

func TestRulesWaitForUnknownValues(t *testing.T) {
	s := mustCompile(t, portsSchema)
	_, failures, _ := s.Check(func(string) (value.Value, bool) { return []value.Value{int64(0), value.Unknown{}}, true })
	if len(failures) != 0 {
		t.Errorf("a rule over a value holding an Unknown ran at plan: %q", failures)
	}
}

func TestRulesDoNotRunOnAValueOfAnotherShape(t *testing.T) {
	s := mustCompile(t, portsSchema)
	_, failures, _ := s.Check(func(string) (value.Value, bool) { return []value.Value{"eighty"}, true })
	if got := strings.Join(failures, "\n"); got != "ports[0]: expected integer, got string" {
		t.Errorf("got %q", got)
	}
}

func TestFieldTokens(t *testing.T) {
	for in, want := range map[string]string{
		"<nil>":          "",
		"spec":           "spec",
		"a.b[1][key].c":  "a b 1 key c",
		"[0].x":          "0 x",
		"m[with.dot]":    "m with.dot",
		"unterminated[x": "unterminated x",
	} {
		if got := strings.Join(fieldTokens(in), " "); got != want {
			t.Errorf("fieldTokens(%q) = %q, want %q", in, got, want)
		}
	}
}
